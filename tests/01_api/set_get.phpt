--TEST--
Shm\Table: set/get: stores a value, returns true, and an overwrite replaces it
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

var_dump(Table::set('k', 'first'));
var_dump(Table::get('k'));
var_dump(Table::set('k', ['second']));
var_dump(Table::get('k'));
var_dump(Table::set('k', 3));
var_dump(Table::get('k'));
var_dump(Table::count());
// the key is exact: no prefix or case folding
var_dump(Table::get('K'), Table::get('k '), Table::get('kk'));
?>
--EXPECT--
bool(true)
string(5) "first"
bool(true)
array(1) {
  [0]=>
  string(6) "second"
}
bool(true)
int(3)
int(1)
NULL
NULL
NULL
