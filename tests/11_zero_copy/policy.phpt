--TEST--
Shm\Table: zero-copy: table.zero_copy=auto is off under the CLI, and reads then copy
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--INI--
table.zero_copy=auto
--FILE--
<?php
use Shm\Table;

Table::set('a', ['x' => 1, 'y' => [2, 3]]);
$v = Table::get('a');
$s = Table::stats();
var_dump(PHP_SAPI, ini_get('table.zero_copy'), $s['zero_copy'], $s['zero_copy_reads'], $s['copied_reads'], $s['pins']);
var_dump($v === ['x' => 1, 'y' => [2, 3]]);
?>
--EXPECT--
string(3) "cli"
string(4) "auto"
bool(false)
int(0)
int(1)
int(0)
bool(true)
