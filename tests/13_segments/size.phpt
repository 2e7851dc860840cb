--TEST--
Shm\Table: named segment: another table.memory attaches at the segment's size with one warning; table.segment_recreate=1 resizes
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; if (!function_exists('proc_open')) die('skip needs proc_open'); ?>
--FILE--
<?php
require __DIR__ . '/segments.inc';
$dir = seg_dir();
$show = 'var_dump(Table::get("k")); Table::set("k", "kept"); Table::get("k"); $s = Table::stats(); var_dump($s["memory_size"], $s["segment_memory_requested"]);';
echo seg_run($dir, 'sz', 'Table::set("k", "small");');
echo seg_run($dir, 'sz', $show, ['table.memory' => '4M']);   // stdout, then the warning on stderr
echo seg_run($dir, 'sz', $show, ['table.memory' => '4M', 'table.segment_recreate' => '1']);
echo seg_run($dir, 'sz', $show, ['table.memory' => '4M']);
?>
--EXPECTF--
string(5) "small"
int(2097152)
int(4194304)
Warning: Shm\Table::get(): table.memory=4M asks for 4194304 bytes, but segment "sz" (%s/php-table.sz) has 2097152: attached at its size; to resize it, remove the file or set table.segment_recreate=1 in Command line code on line 1
NULL
int(4194304)
int(4194304)
string(4) "kept"
int(4194304)
int(4194304)
