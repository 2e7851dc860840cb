--TEST--
Shm\Table: redis tier: the helper's process title names it and its segment, and a helper that hangs (stopped) is replaced as a dead one is
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; table_skip_unless_posix(); require __DIR__ . '/tier.inc'; tier_skipif();
if (!is_readable('/proc/self/cmdline')) die('skip no /proc'); ?>
--FILE--
<?php
require __DIR__ . '/tier.inc';
$r = tier_redis_start();

function title(int $pid, string $want): string
{
    $cmdline = rtrim(str_replace("\0", ' ', (string) @file_get_contents("/proc/$pid/cmdline")));
    $comm = trim((string) @file_get_contents("/proc/$pid/comm"));
    // Under valgrind the kernel's argument area is valgrind's own, which the helper must leave alone
    // (tier_helper.c): there the command line must still be valgrind's, and only the name is its own.
    $ok = getenv('USE_ZEND_ALLOC') === '0' && str_contains($cmdline, 'valgrind') ? true : $cmdline === $want;
    return ($ok ? 'title ok' : "title: $cmdline") . ' | ' . $comm;
}

// A process gone, or a zombie not reaped yet by init (the helper's parent).
function gone(int $pid): bool
{
    $stat = @file_get_contents("/proc/$pid/stat");
    return $stat === false || preg_match('/\) Z /', $stat) === 1;
}

// The anonymous segment, and a named one. x's timeout is short enough that the wait for a hung helper below
// stays short (6 x 1 s + 5 s), and long enough that x's own reads from Redis never hit it on a loaded machine
// (100 ms did, once, on the debug ZTS PHP beside two other CI steps).
$x = tier_agent($r, ['table.redis_timeout' => '1000']);
var_dump(tier_wait_fresh($x));
$h1 = tier_do($x, 'return Shm\Table::stats()["redis"]["helper_pid"];');
echo title($h1, "table: redis helper [anonymous]"), "\n";
$n = tier_agent($r, ['table.segment' => 'tiertitle', 'table.segment_dir' => $r['dir']]);
var_dump(tier_wait_fresh($n));
echo title(tier_do($n, 'return Shm\Table::stats()["redis"]["helper_pid"];'), "table: redis helper [tiertitle]"), "\n";
seg_wait($n);

// x's helper stops (SIGSTOP): alive, confirming nothing. Once it has been silent for longer than any turn
// of its loop can take (6 x table.redis_timeout + 5 s), the next read that finds the L1 not fresh ends it
// and starts another, which makes the L1 fresh again.
$starts = tier_do($x, 'return Shm\Table::stats()["redis"]["helper_starts"];');
posix_kill($h1, SIGSTOP);
var_dump(table_wait_until(function () use ($x, $h1) {
    $s = tier_do($x, 'Shm\Table::get("__warm", "shared"); return Shm\Table::stats()["redis"];');
    return $s['helper_pid'] !== $h1 && $s['helper_pid'] !== 0 && $s['fresh'];
}));
var_dump(table_wait_until(fn () => gone($h1)));
$s = tier_do($x, 'return Shm\Table::stats()["redis"];');
echo 'helper_starts: +', $s['helper_starts'] - $starts, "\n";
echo title($s['helper_pid'], "table: redis helper [anonymous]"), "\n";

// The new helper applies invalidations: another host's write reaches x.
$seen = tier_invalidations($x);
tier_run($r, 'Table::set("k", "from y", null, "shared");');
var_dump(tier_wait_invalidations($x, $seen));
var_dump(tier_do($x, 'return Shm\Table::get("k", "shared");'));
seg_wait($x);
?>
--EXPECTF--
bool(true)
title ok | table-redis
bool(true)
title ok | table-redis
bool(true)
bool(true)
helper_starts: +1
title ok | table-redis
bool(true)
string(6) "from y"
