--TEST--
Shm\Table: named segment: a symlink in its place is refused, never followed
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; if (!function_exists('proc_open')) die('skip needs proc_open'); ?>
--FILE--
<?php
require __DIR__ . '/segments.inc';
$dir = seg_dir();
$try = 'try { Table::set("k", 1); echo "ok\n"; } catch (Shm\TableException $e) { echo get_class($e), ": ", $e->getMessage(), "\n"; }';
symlink("$dir/target", "$dir/php-table.link");
echo seg_run($dir, 'link', $try);
var_dump(file_exists("$dir/target"), is_link("$dir/php-table.link"));
?>
--EXPECTF--
Shm\TableException: Shm\Table is unavailable: segment "link": %s/php-table.link is a symbolic link; refusing to follow it (remove it)
bool(false)
bool(true)
