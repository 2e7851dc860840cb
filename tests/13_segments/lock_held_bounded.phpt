--TEST--
Shm\Table: named segment: a lock another process holds on the file ends in a TableException within the bound, never a hang
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; if (!function_exists('proc_open')) die('skip needs proc_open'); ?>
--FILE--
<?php
require __DIR__ . '/segments.inc';
$dir = seg_dir();
$try = 'try { Table::set("k", 1); echo "ok\n"; } catch (Shm\TableException $e) { echo get_class($e), ": ", $e->getMessage(), "\n"; }';
// Wait 0.3 s instead of the default (10 s plus 1 s per GiB of table.memory).
$bound = ['table.lock_timeout' => '300'];

// A finished segment whose lock another process holds (a creator or replacer stopped by SIGSTOP or a
// debugger, or any process that can open the file). seg_finish's 60 s only catches a hang.
echo seg_run($dir, 'held', $try);
$h = seg_hold_lock("$dir/php-table.held");
echo str_replace("pid {$h['pid']}", 'pid PID', seg_finish(seg_start($dir, 'held', $try, $bound)));
seg_wait($h);
echo seg_finish(seg_start($dir, 'held', $try, $bound));   // let go: it attaches

// A new file whose creator stopped before finishing it (no magic yet) while holding its lock.
touch("$dir/php-table.new");
chmod("$dir/php-table.new", 0600);
$h = seg_hold_lock("$dir/php-table.new");
echo str_replace("pid {$h['pid']}", 'pid PID', seg_finish(seg_start($dir, 'new', $try, $bound)));
seg_wait($h);
echo seg_finish(seg_start($dir, 'new', $try, $bound));
echo seg_run($dir, 'new', 'var_dump(Table::get("k"), Table::stats()["segment_created"]);');
?>
--EXPECTF--
ok
Shm\TableException: Shm\Table is unavailable: segment "held": %s/php-table.held is locked by another process (pid PID), which did not let go of it within 0.3 s: creating or replacing a segment holds that lock only briefly, so that process is stopped or stuck; end it, or remove the file
ok
Shm\TableException: Shm\Table is unavailable: segment "new": %s/php-table.new is locked by another process (pid PID), which did not let go of it within 0.3 s: creating or replacing a segment holds that lock only briefly, so that process is stopped or stuck; end it, or remove the file
ok
int(1)
bool(false)
