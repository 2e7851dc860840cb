--TEST--
Shm\Table: decrement: starts from 0, subtracts $by, returns the new int
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

var_dump(Table::decrement('c'));
var_dump(Table::decrement('c', 10));
var_dump(Table::decrement('c', -100));
var_dump(Table::get('c'));
Table::set('s', 10);
var_dump(Table::decrement('s', 3));
Table::set('min', 0);
var_dump(Table::decrement('min', PHP_INT_MAX), Table::decrement('min'));
Table::set('max', -1);
var_dump(Table::decrement('max', PHP_INT_MIN));
var_dump(Table::decrement(key: 'n', by: 2, namespace: 'ns'), Table::get('n', 'ns'));
// increment and decrement work on the same counter
Table::increment('mix', 5);
Table::decrement('mix', 2);
var_dump(Table::get('mix'));
?>
--EXPECT--
int(-1)
int(-11)
int(89)
int(89)
int(7)
int(-9223372036854775807)
int(-9223372036854775808)
int(9223372036854775807)
int(-2)
int(-2)
int(3)
