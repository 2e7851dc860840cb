--TEST--
Shm\Table: ttl: set() replaces the expiry with its own (null = never)
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

Table::set('k', 1, 100);
Table::set('k', 2);
var_dump(Table::ttl('k'), Table::getWithMeta('k')[1]['ttl']);
Table::set('k', 3, 50);
var_dump(Table::ttl('k') <= 50);
Table::set('k', 4, 0);
var_dump(Table::ttl('k'));
Table::setMany(['k' => 5], 20);
var_dump(Table::ttl('k') <= 20);
Table::setMany(['k' => 6]);
var_dump(Table::ttl('k'));
?>
--EXPECT--
bool(false)
int(-1)
bool(true)
bool(false)
bool(true)
bool(false)
