<?php
// Case b: the miss path. Keys are written into Redis with phpredis, in the tier's encoding (as another
// host's set() would store them), so none is in this host's L1; the table then reads each once with a
// fresh L1 (GET+PTTL in one round trip, then the fill), against phpredis GET of as many other keys
// written the same way. Every value is compared, and a table pass counts only if the table's own
// counters (stats()['redis'], exact) say each read went to Redis and none was an L1 hit, and Redis ran at
// least one GET per read (more may be another client's: the count is the server's).
// Usage: php miss.php KEYS PASSES
declare(strict_types=1);

use Shm\Table;

require __DIR__ . '/common.php';

[$n, $passes] = array_map('intval', array_slice($argv, 1, 2)) + [0, 0];
if ($n < 1 || $passes < 1) {
    fwrite(STDERR, "usage: miss.php KEYS PASSES\n");
    exit(2);
}
$redis = tier_redis();
$tag = 'miss:' . getmypid();
$sets = [];   // [pass][who] => [key => value]
for ($p = 0; $p < $passes; $p++) {
    foreach (['table', 'redis'] as $who) {
        $kv = [];
        for ($i = 0; $i < $n; $i++) {
            $key = "$tag:$who:$p:$i";
            $value = str_pad("value $who $p $i ", 100, '.');
            // phpredis reads its keys by their Redis names and compares the stored bytes: both prepared here.
            $sets[$p][$who][$key] = $who === 'table' ? $value : [tier_rkey($key), tier_encode_string($value)];
            $kv[tier_rkey($key)] = tier_encode_string($value);
        }
        tier_redis_set_many($redis, $kv);
    }
}
Table::set("$tag:warm", 'w', null, TIER_NS);
tier_wait_fresh("$tag:warm");

$tableUs = $redisUs = [];
for ($p = 0; $p < $passes; $p++) {
    $entries = Table::stats()['entries'];
    $gets = tier_get_calls($redis);
    $before = tier_counts();
    $t = hrtime(true);
    foreach ($sets[$p]['table'] as $key => $value) {
        if (Table::get($key, TIER_NS) !== $value) {
            tier_fail("get($key) returned a wrong value");
        }
    }
    $t = hrtime(true) - $t;
    $d = tier_counts_delta($before, tier_counts());
    if ($d['reads'] !== $n || $d['l1_hits'] !== 0) {
        tier_fail("pass $p: the table counted {$d['reads']} reads of Redis and {$d['l1_hits']} L1 hits for $n gets (not all misses)");
    }
    if (($g = tier_get_calls($redis) - $gets) < $n) {
        tier_fail("pass $p: Redis ran $g GETs for $n table reads");
    }
    if (!Table::stats()['redis']['fresh']) {
        tier_fail("pass $p: the L1 went stale (reads did not fill it)");
    }
    $filled = Table::stats()['entries'] - $entries;
    $tableUs[] = $t / 1e3 / $n;

    $t = hrtime(true);
    foreach ($sets[$p]['redis'] as $key => [$rkey, $bytes]) {
        if ($redis->get($rkey) !== $bytes) {
            tier_fail("phpredis GET of $key returned wrong bytes");
        }
    }
    $t = hrtime(true) - $t;
    $redisUs[] = $t / 1e3 / $n;
}
foreach ($sets as $bywho) {
    foreach ($bywho as $kv) {
        $redis->del(array_map('tier_rkey', array_keys($kv)));
    }
}
tier_result(['case' => 'b', 'row' => 'miss, 100 B string', 'client' => tier_client_name($redis), 'table_us' => tier_median($tableUs),
    'redis_us' => tier_median($redisUs), 'filled_last_pass' => $filled, 'keys' => $n,
    'verified' => 2 * $n * $passes]);
