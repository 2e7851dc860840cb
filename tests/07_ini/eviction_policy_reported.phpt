--TEST--
Shm\Table: ini: table.eviction_policy=noeviction is reported by stats()
--INI--
table.eviction_policy=noeviction
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
var_dump(ini_get('table.eviction_policy'), Shm\Table::stats()['eviction_policy']);
?>
--EXPECT--
string(10) "noeviction"
string(10) "noeviction"
