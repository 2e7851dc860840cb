--TEST--
Shm\Table: memory: 4 workers writing log-normal sizes into a full table evict about what they write, never wholesale, and every set succeeds
--INI--
table.zero_copy=0
table.memory=8M
table.eviction_policy=lru
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; table_skip_unless_pcntl(); table_skip_if_valgrind('a stress test, minutes long'); ?>
--FILE--
<?php
// Under concurrent writers the bound is checked in aggregate: the per-write figure needs a table to
// itself (evict_bound_*.phpt). Every write of S block bytes may evict up to 2*S plus one entry, so the
// whole run must stay far below that sum; in practice it evicts about what it writes.
use Shm\Table;
require __DIR__ . '/../helpers.inc';
require __DIR__ . '/evict_bound.inc';

$results = table_fork(4, function (int $w) {
    mt_srand(100 + $w);
    $failed = $bad = $blocks = $writes = 0;
    $maxBlock = 0;
    for ($i = 0; $i < 4000; $i++) {
        $len = evict_lognormal();
        $key = "w$w:$i";
        $failed += !Table::set($key, str_repeat(chr(97 + $i % 26), $len));
        $blocks += evict_block($key, $len);
        $maxBlock = max($maxBlock, evict_block($key, $len));
        $writes++;
        $oi = mt_rand(0, $i);
        $v = Table::get("w$w:$oi");
        $bad += $v !== null && $v !== str_repeat(chr(97 + $oi % 26), strlen($v));
    }
    return [$failed, $bad, $blocks, $writes, $maxBlock];
});
$failed = array_sum(array_column($results, 0));
$bad = array_sum(array_column($results, 1));
$blocks = array_sum(array_column($results, 2));
$writes = array_sum(array_column($results, 3));
$maxBlock = max(array_column($results, 4));
$s = Table::stats();
var_dump($failed, $bad, $s['oom']);
echo 'evicted within the per-write bound summed: ', var_export($s['evicted_bytes'] <= 2 * $blocks + $writes * $maxBlock, true), "\n";
echo 'evicted at most 1.5 times what was written: ', var_export($s['evicted_bytes'] <= 1.5 * $blocks, true), "\n";
echo 'table still full: ', var_export($s['memory_free'] < ($s['memory_free'] + $s['memory_used']) / 4, true), "\n";
?>
--EXPECT--
int(0)
int(0)
int(0)
evicted within the per-write bound summed: true
evicted at most 1.5 times what was written: true
table still full: true
