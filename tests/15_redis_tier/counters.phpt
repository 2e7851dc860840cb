--TEST--
Shm\Table: redis tier: stats()['redis'] counts reads, L1 hits, misses, fills, errors, reconnects and bypasses exactly across processes, and metrics() has them
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; table_skip_unless_posix(); table_skip_unless_pcntl(); require __DIR__ . '/tier.inc'; tier_skipif(); ?>
--FILE--
<?php
require __DIR__ . '/tier.inc';
$r = tier_redis_start();
$x = tier_agent($r);
var_dump(tier_wait_fresh($x));
echo 'keys: ', implode(',', array_keys(tier_do($x, 'return Shm\Table::stats()["redis"];'))), "\n";
$seen = tier_invalidations($x);
tier_do($x, 'return Shm\Table::setMany(["a" => 1, "b" => [2]], null, "shared");');
var_dump(tier_wait_invalidations($x, $seen + 1));

// Four forked workers of x's table each read 300 keys that exist and 100 that do not. Whether a read of
// an existing key is an L1 hit or goes to Redis depends on freshness and timing; that each is counted
// once, in one place, and that no count is lost, does not.
echo tier_do($x, 'require_once ' . var_export(__DIR__ . '/../helpers.inc', true) . ';' . <<<'PHP'

$s0 = Shm\Table::stats()['redis'];
table_fork(4, function (int $i) {
    for ($k = 0; $k < 300; $k++) {
        if (Shm\Table::get($k & 1 ? 'a' : 'b', 'shared') === null) {
            return false;
        }
    }
    for ($k = 0; $k < 100; $k++) {
        if (Shm\Table::get("absent$i:$k", 'shared') !== null) {
            return false;
        }
    }
    return true;
});
$s1 = Shm\Table::stats()['redis'];
$d = [];
foreach ($s1 as $k => $v) {
    if (is_int($v)) {
        $d[$k] = $v - $s0[$k];
    }
}
return sprintf("hits+reads: %d, misses: %d, fills <= reads: %s, bypasses <= reads: %s, errors: %d, failovers: %d\n",
    $d['l1_hits'] + $d['reads'], $d['misses'], var_export($d['fills'] <= $d['reads'], true),
    var_export($d['bypasses'] <= $d['reads'], true), $d['errors'], $s1['failovers']);
PHP);

// getMany: one read of Redis for what the L1 lacks; each key a hit or a miss.
echo tier_do($x, <<<'PHP'
$s0 = Shm\Table::stats()['redis'];
$v = Shm\Table::getMany(['a', 'b', 'nope1', 'nope2'], 'shared');
$s1 = Shm\Table::stats()['redis'];
return sprintf("getMany: %d values, reads %d, misses %d\n", count($v), $s1['reads'] - $s0['reads'], $s1['misses'] - $s0['misses']);
PHP);

// A connection Redis closed is opened again: a reconnect.
$before = tier_do($x, 'return Shm\Table::stats()["redis"]["reconnects"];');
tier_cli($r, 'CLIENT', 'KILL', 'TYPE', 'normal');
tier_do($x, 'Shm\Table::set("c", 1, null, "shared"); return null;');
echo 'reconnected: ', var_export(tier_do($x, 'return Shm\Table::stats()["redis"]["reconnects"];') > $before, true), "\n";

// metrics() carries the same figures (tests/12_observability/observability.inc compares them).
echo tier_do($x, 'require_once ' . var_export(__DIR__ . '/../12_observability/observability.inc', true) . ';' . <<<'PHP'

// The helper reconnects and empties the L1 on its own time after the CLIENT KILL above (it lost its
// connection too): compare a stats() and a metrics() taken while nothing moved in between. A real
// disagreement never passes; the deadline only ends a wait that would otherwise not.
for ($try = 0; $try < 300; $try++) {
    $bad = obs_compare(Shm\Table::stats(), $p = obs_parse($m = Shm\Table::metrics()));
    if (!$bad && !$p['errors']) {
        break;
    }
    usleep(100000);
}
$promtool = 'promtool not installed';
if (trim((string) shell_exec('command -v promtool 2>/dev/null'))) {
    $h = proc_open(['promtool', 'check', 'metrics'], [0 => ['pipe', 'r'], 1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
    fwrite($pipes[0], $m);
    fclose($pipes[0]);
    $out = stream_get_contents($pipes[1]) . stream_get_contents($pipes[2]);
    $promtool = proc_close($h) === 0 && $out === '' ? 'promtool ok' : "promtool: $out";
}
return 'metrics: ' . ($bad || $p['errors'] ? implode('; ', array_merge($bad, $p['errors'])) : 'agree')
    . ', reads ' . var_export(isset($p['samples']['table_redis_reads_total']), true) . ', ' . $promtool . "\n";
PHP);
seg_wait($x);
?>
--EXPECTF--
bool(true)
keys: enabled,fresh,fresh_age_ms,helper_pid,helper_starts,invalidations,flushes,tracking,reads,l1_hits,misses,fills,errors,reconnects,failovers,bypasses
bool(true)
hits+reads: 1600, misses: 400, fills <= reads: true, bypasses <= reads: true, errors: 0, failovers: 0
getMany: 2 values, reads 1, misses 2
reconnected: true
metrics: agree, reads true, promtool %s
