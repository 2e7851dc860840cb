--TEST--
Shm\Table: ini: table.eviction_policy=random is reported by stats()
--INI--
table.eviction_policy=random
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
var_dump(Shm\Table::stats()['eviction_policy'], Shm\Table::set('k', 1), Shm\Table::get('k'));
?>
--EXPECT--
string(6) "random"
bool(true)
int(1)
