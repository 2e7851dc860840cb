--TEST--
Shm\Table: ini: table.eviction_policy=gdsf is reported by stats()
--INI--
table.eviction_policy=gdsf
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
var_dump(Shm\Table::stats()['eviction_policy'], Shm\Table::set('k', 1), Shm\Table::get('k'));
?>
--EXPECT--
string(4) "gdsf"
bool(true)
int(1)
