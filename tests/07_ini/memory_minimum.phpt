--TEST--
Shm\Table: ini: table.memory=1M is accepted and reported as the segment size
--INI--
table.memory=1M
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

var_dump(Table::set('k', str_repeat('x', 1000)), strlen(Table::get('k')));
$s = Table::stats();
var_dump($s['memory_size'], $s['memory_free'] > 0, $s['memory_free'] < 1048576);
?>
--EXPECT--
bool(true)
int(1000)
int(1048576)
bool(true)
bool(true)
