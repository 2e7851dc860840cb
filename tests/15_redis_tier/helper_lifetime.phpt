--TEST--
Shm\Table: redis tier: the helper outlives the worker that started it, and exits once no process uses the table
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; table_skip_unless_posix(); require __DIR__ . '/tier.inc'; tier_skipif(); ?>
--FILE--
<?php
require __DIR__ . '/tier.inc';

function running(int $pid): bool
{
    $status = @file_get_contents("/proc/$pid/status");
    return $status !== false && !preg_match('/^State:\s+Z/m', $status);
}

$r = tier_redis_start();
$x = tier_agent($r);
// A forked "worker" makes the first tiered call, which starts the helper, and exits, as php-fpm recycles
// workers; the process that made the table (the php-fpm master here) lives on.
$first = tier_do($x, '$pid = pcntl_fork(); if ($pid === 0) { for ($i = 0; $i < 12000 && !Shm\Table::stats()["redis"]["fresh"]; $i++) { Shm\Table::get("w", "shared"); usleep(10000); } exit(Shm\Table::stats()["redis"]["fresh"] ? 0 : 1); }
    pcntl_waitpid($pid, $status); return Shm\Table::stats()["redis"] + ["fresh_in_worker" => pcntl_wexitstatus($status) === 0];');
// (Whether the L1 was fresh is the worker's to say: by the time it has exited, under valgrind, the
// helper's latest PING may be older than max_stale.)
echo "started by the worker: ", var_export($first['helper_pid'] > 0 && $first['fresh_in_worker'], true), "\n";
usleep(2500 * 1000);   // more than the helper's once-a-second check
$later = tier_do($x, 'return Shm\Table::stats()["redis"];');
echo "same helper after the worker left: ", var_export($later['helper_pid'] === $first['helper_pid'] && running($first['helper_pid']), true), "\n";
var_dump(tier_wait_fresh($x));
echo "helper_starts: ", tier_do($x, 'return Shm\Table::stats()["redis"]["helper_starts"];'), "\n";
// Its parent is not the process that started it (it was detached), so no worker has to reap it.
echo "detached: ", var_export(!preg_match('/^PPid:\s+' . getmypid() . '$/m', (string) file_get_contents("/proc/{$first['helper_pid']}/status")), true), "\n";
seg_wait($x);
var_dump(table_wait_until(fn () => !running($first['helper_pid'])));
?>
--EXPECT--
started by the worker: true
same helper after the worker left: true
bool(true)
helper_starts: 1
detached: true
bool(true)
