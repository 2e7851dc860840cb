--TEST--
Shm\Table: delete: true when it removed an entry, false when it wasn't there
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

var_dump(Table::delete('k'));
Table::set('k', 'v');
Table::set('other', 'o');
var_dump(Table::delete('k'));
var_dump(Table::delete('k'));
var_dump(Table::get('k'), Table::exists('k'), Table::count());
var_dump(Table::get('other'));
// a deleted key can be stored again
var_dump(Table::set('k', 'again'), Table::get('k'));
// delete in one namespace only
Table::set('k', 'ns', null, 'n1');
var_dump(Table::delete('k', 'n1'), Table::get('k'), Table::get('k', 'n1'));
?>
--EXPECT--
bool(false)
bool(true)
bool(false)
NULL
bool(false)
int(1)
string(1) "o"
bool(true)
string(5) "again"
bool(true)
string(5) "again"
NULL
