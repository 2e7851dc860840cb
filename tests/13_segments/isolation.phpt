--TEST--
Shm\Table: named segment: two names are two tables; a process without a name has its own anonymous one
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; if (!function_exists('proc_open')) die('skip needs proc_open'); ?>
--FILE--
<?php
require __DIR__ . '/segments.inc';
$dir = seg_dir();
echo seg_run($dir, 'pool-a', 'Table::set("who", "pool a"); Table::set("only-a", 1);');
echo seg_run($dir, 'pool-b', 'Table::set("who", "pool b");');
echo seg_run($dir, 'pool-a', 'var_dump(Table::get("who"), Table::exists("only-a"), Table::stats()["segment"]);');
echo seg_run($dir, 'pool-b', 'var_dump(Table::get("who"), Table::exists("only-a"), Table::stats()["segment"]);');
echo seg_run($dir, '', 'var_dump(Table::get("who"), Table::stats()["segment"], Table::stats()["segment_path"]);');
$files = array_values(array_diff(scandir($dir), ['.', '..']));
var_dump($files);
?>
--EXPECT--
string(6) "pool a"
bool(true)
string(6) "pool-a"
string(6) "pool b"
bool(false)
string(6) "pool-b"
NULL
NULL
NULL
array(2) {
  [0]=>
  string(16) "php-table.pool-a"
  [1]=>
  string(16) "php-table.pool-b"
}
