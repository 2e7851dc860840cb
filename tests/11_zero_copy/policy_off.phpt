--TEST--
Shm\Table: zero-copy: table.zero_copy=0 keeps it off: every read copies and nothing is pinned
--INI--
table.zero_copy=0
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

Table::set('arr', ['x' => 1, 'y' => [2, 3]]);
var_dump(Table::get('arr') === ['x' => 1, 'y' => [2, 3]]);
$s = Table::stats();
var_dump($s['zero_copy'], $s['zero_copy_reads'], $s['copied_reads'], $s['pins']);
?>
--EXPECT--
bool(true)
bool(false)
int(0)
int(1)
int(0)
