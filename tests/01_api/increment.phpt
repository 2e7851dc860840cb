--TEST--
Shm\Table: increment: starts from 0, adds $by, returns the new int
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

var_dump(Table::increment('c'));
var_dump(Table::increment('c'));
var_dump(Table::increment('c', 10));
var_dump(Table::increment('c', -20));
var_dump(Table::increment('c', 0));
var_dump(Table::get('c'));
var_dump(Table::increment('fresh', 5));
// an int stored with set() can be incremented
Table::set('s', 41);
var_dump(Table::increment('s'));
Table::set('z', 0);
var_dump(Table::increment('z', PHP_INT_MAX));
Table::set('m', -1);
var_dump(Table::increment('m', PHP_INT_MIN + 1));
var_dump(Table::increment('m', 0), Table::get('m') === PHP_INT_MIN);
// namespaces are separate counters
var_dump(Table::increment('c', 1, null, 'ns'), Table::increment('c', 1, null, 'ns'), Table::get('c'));
var_dump(Table::increment(key: 'c', by: 3, namespace: 'ns'));
var_dump(Table::count(), Table::count('ns'));
?>
--EXPECT--
int(1)
int(2)
int(12)
int(-8)
int(-8)
int(-8)
int(5)
int(42)
int(9223372036854775807)
int(-9223372036854775808)
int(-9223372036854775808)
bool(true)
int(1)
int(2)
int(-8)
int(5)
int(5)
int(1)
