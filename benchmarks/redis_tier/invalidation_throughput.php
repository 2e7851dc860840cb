<?php
// Case d: does a host's helper keep up with other hosts' writes? Host H (this process) reads a tiered key,
// so its helper runs and the namespace exists in its table (the helper counts an invalidation for every
// key of a namespace the table has, cached or not). It then starts WRITERS processes (this file with the
// argument `w`), which SET keys under the namespace's Redis prefix with phpredis, in pipelines of 32, as
// fast as they can for SECONDS, and samples stats()['redis'] every 5 ms meanwhile: invalidations applied,
// fresh_age_ms, fresh. After the writers stop it waits (up to 5 s) for the count to reach every write.
// Each writer writes its own keys (10,000 of them, in turn) as decimal integers, the tier's encoding.
// Usage: php invalidation_throughput.php WRITERS SECONDS
declare(strict_types=1);

use Shm\Table;

require __DIR__ . '/common.php';

const PIPELINE = 32;

if (($argv[1] ?? '') === 'w') {
    $id = (int) $argv[2];
    $seconds = (float) $argv[3];
    $redis = tier_redis();
    $keys = [];
    for ($k = 0; $k < 10000; $k++) {
        $keys[] = tier_rkey("w$id:$k");
    }
    echo "ready\n";
    if (trim((string) fgets(STDIN)) !== 'go') {
        exit(1);
    }
    $n = 0;
    $t = hrtime(true);
    $end = $t + (int) ($seconds * 1e9);
    do {
        $redis->pipeline();
        for ($j = 0; $j < PIPELINE; $j++, $n++) {
            $redis->set($keys[$n % 10000], (string) $n);
        }
        $replies = $redis->exec();
        if (count($replies) !== PIPELINE || in_array(false, $replies, true)) {
            tier_fail("writer $id: a SET failed");
        }
    } while (hrtime(true) < $end);
    printf("%d %d\n", $n, hrtime(true) - $t);
    exit(0);
}

$writers = (int) ($argv[1] ?? 0);
$seconds = (float) ($argv[2] ?? 0);
if ($writers < 1 || $seconds <= 0) {
    fwrite(STDERR, "usage: invalidation_throughput.php WRITERS SECONDS\n");
    exit(2);
}
$key = 'throughput:' . getmypid();
Table::set($key, 1, null, TIER_NS);
tier_wait_fresh($key);
$procs = [];
for ($w = 0; $w < $writers; $w++) {
    $procs[$w] = tier_spawn(__FILE__, ['w', $w, $seconds]);
    if (tier_read_line($procs[$w][2], "writer $w") !== 'ready') {
        tier_fail("writer $w did not start");
    }
}
$inv0 = Table::stats()['redis']['invalidations'];
$flushes0 = Table::stats()['redis']['flushes'];
foreach ($procs as [, $in]) {
    fwrite($in, "go\n");
}
$t0 = hrtime(true);
$maxAge = 0;
$staleSamples = $samples = 0;
$writersEnd = $t0 + (int) ($seconds * 1e9);
while (hrtime(true) < $writersEnd) {
    $s = Table::stats()['redis'];
    $maxAge = max($maxAge, $s['fresh_age_ms']);
    $staleSamples += $s['fresh'] ? 0 : 1;
    $samples++;
    usleep(5000);
}
$writes = 0;
$writeNs = 0;
foreach ($procs as $w => [$p, $in, $out]) {
    [$n, $ns] = array_map('intval', explode(' ', tier_read_line($out, "writer $w")));
    $writes += $n;
    $writeNs = max($writeNs, $ns);
    fclose($in);
    fclose($out);
    if (proc_close($p) !== 0) {
        tier_fail("writer $w failed");
    }
}
$tStop = hrtime(true);
$atStop = Table::stats()['redis']['invalidations'] - $inv0;
// Drain: the helper applies what Redis has sent by now. The deadline only catches invalidations that are
// never applied (drain_ms reports how long it took): a busy machine may keep the helper waiting for seconds.
// A machine so busy that a PING went unanswered for table.redis_timeout makes the helper start over: it
// empties the L1 (a flush) and the invalidations sent before that are never applied one by one, nor need
// to be. Then nothing is lost once the helper is confirmed fresh again after the writers' end; the row says
// how many flushes there were, and its rates measured a helper that restarted.
$drainEnd = $tStop + 60_000_000_000;
do {
    $s = Table::stats()['redis'];
    $maxAge = max($maxAge, $s['fresh_age_ms']);
    $applied = $s['invalidations'] - $inv0;
    $flushes = $s['flushes'] - $flushes0;
    if ($applied >= $writes || ($flushes > 0 && $s['fresh'] && hrtime(true) - $tStop > 1e6 * $s['fresh_age_ms'])) {
        break;
    }
    usleep(1000);
} while (hrtime(true) < $drainEnd);
$drainMs = (hrtime(true) - $tStop) / 1e6;
if ($applied < $writes && $flushes === 0) {
    tier_fail("the helper applied $applied invalidations of $writes writes within 60 s of the writers' end");
}
if ($applied < $writes && !$s['fresh']) {
    tier_fail("the helper restarted ($flushes flushes) and was not fresh again within 60 s of the writers' end");
}
tier_result(['case' => 'd', 'row' => "$writers writer" . ($writers > 1 ? 's' : ''), 'writers' => $writers,
    'writes_per_s' => $writes / ($writeNs / 1e9), 'inval_per_s' => $atStop / (($tStop - $t0) / 1e9),
    'writes' => $writes, 'applied' => $applied, 'drain_ms' => $drainMs, 'max_fresh_age_ms' => $maxAge,
    'stale_samples' => $staleSamples, 'samples' => $samples, 'flushes' => $flushes, 'verified' => $writes]);
