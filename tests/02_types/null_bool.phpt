--TEST--
Shm\Table: types: null, true and false come back with their exact type
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

foreach (['n' => null, 't' => true, 'f' => false] as $k => $v) {
    Table::set($k, $v);
}
var_dump(Table::get('n'), Table::get('t'), Table::get('f'));
var_dump(Table::get('n') === null, Table::get('t') === true, Table::get('f') === false);
var_dump(Table::exists('n'));
?>
--EXPECT--
NULL
bool(true)
bool(false)
bool(true)
bool(true)
bool(true)
bool(true)
