--TEST--
Shm\Table: ini: table.memory accepts K/M/G shorthand and sets stats()['memory_size']
--INI--
table.memory=8M
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
var_dump(ini_get('table.memory'));
$s = Shm\Table::stats();
var_dump($s['memory_size']);
var_dump($s['memory_used'] + $s['memory_free'] <= 8 * 1024 * 1024);
?>
--EXPECT--
string(2) "8M"
int(8388608)
bool(true)
