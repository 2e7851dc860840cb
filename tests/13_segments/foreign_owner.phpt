--TEST--
Shm\Table: named segment: a segment file owned by another user is refused
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; if (!function_exists('proc_open')) die('skip needs proc_open');
if (!function_exists('posix_geteuid') || posix_geteuid() !== 0) die('skip needs root to make a file of another user'); ?>
--FILE--
<?php
require __DIR__ . '/segments.inc';
$dir = seg_dir();
$try = 'try { Table::set("k", 1); echo "ok\n"; } catch (Shm\TableException $e) { echo get_class($e), ": ", $e->getMessage(), "\n"; }';
echo seg_run($dir, 'theirs', $try);
chown("$dir/php-table.theirs", 65534);
echo seg_run($dir, 'theirs', $try);
echo seg_run($dir, 'theirs', $try, ['table.segment_recreate' => '1']);   // not even replaced
?>
--EXPECTF--
ok
Shm\TableException: Shm\Table is unavailable: segment "theirs": %s/php-table.theirs is owned by uid 65534, not by this process's user (uid 0); refusing to use it
Shm\TableException: Shm\Table is unavailable: segment "theirs": %s/php-table.theirs is owned by uid 65534, not by this process's user (uid 0); refusing to use it
