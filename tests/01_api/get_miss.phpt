--TEST--
Shm\Table: get: returns null on a miss and creates nothing
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

var_dump(Table::get('missing'));
var_dump(Table::get('missing', 'ns'));
var_dump(Table::exists('missing'));
var_dump(Table::count());
var_dump(Table::count('ns'));
var_dump(Table::namespaces());
?>
--EXPECT--
NULL
NULL
bool(false)
int(0)
int(0)
array(0) {
}
