<?php
// Case a: an L1 hit of a tiered get() against phpredis GET of the same Redis key (the same bytes), over
// TCP loopback, for a 100-byte string and a small array. Every result is compared with the expected
// value, and a pass counts only if Redis executed no GET during the table's loop and the table counted
// one hit per get (an L1 that went stale mid-pass would read Redis instead).
// Usage: php l1_hit.php TABLE_GETS REDIS_GETS PASSES
declare(strict_types=1);

use Shm\Table;

require __DIR__ . '/common.php';

[$tableGets, $redisGets, $passes] = array_map('intval', array_slice($argv, 1, 3)) + [0, 0, 0];
if ($tableGets < 1 || $redisGets < 1 || $passes < 1) {
    fwrite(STDERR, "usage: l1_hit.php TABLE_GETS REDIS_GETS PASSES\n");
    exit(2);
}
$redis = tier_redis();
$values = [
    'string 100 B' => str_repeat('0123456789', 10),
    'small array' => ['id' => 42, 'name' => 'Aachen', 'mass' => 21.5, 'tags' => ['L5', 'fell'], 'valid' => true],
];
foreach ($values as $row => $value) {
    $key = 'hit:' . getmypid() . ':' . strlen($row);
    Table::set($key, $value, null, TIER_NS);
    tier_wait_fresh($key);
    $raw = $redis->get(tier_rkey($key));   // the bytes phpredis will read: what the tier stored
    if (!is_string($raw) || (is_string($value) && $raw !== tier_encode_string($value))) {
        tier_fail("$row: Redis holds an unexpected encoding: " . bin2hex((string) $raw));
    }
    if (Table::get($key, TIER_NS) !== $value) {   // the miss that fills the L1
        tier_fail("$row: first get returned a wrong value");
    }
    $tableOps = $redisOps = [];
    for ($p = 0; $p < $passes; $p++) {
        $gets = tier_get_calls($redis);
        $hits = tier_hits();
        $t = hrtime(true);
        for ($i = 0; $i < $tableGets; $i++) {
            if (Table::get($key, TIER_NS) !== $value) {
                tier_fail("$row: get returned a wrong value");
            }
        }
        $t = hrtime(true) - $t;
        if (($g = tier_get_calls($redis) - $gets) !== 0 || ($h = tier_hits() - $hits) !== $tableGets) {
            tier_fail("$row: pass $p was not all L1 hits: Redis ran $g GETs, the table counted "
                . ($h ?? '?') . " hits of $tableGets");
        }
        $tableOps[] = $tableGets / ($t / 1e9);

        $rkey = tier_rkey($key);
        $t = hrtime(true);
        for ($i = 0; $i < $redisGets; $i++) {
            if ($redis->get($rkey) !== $raw) {
                tier_fail("$row: phpredis GET returned wrong bytes");
            }
        }
        $t = hrtime(true) - $t;
        $redisOps[] = $redisGets / ($t / 1e9);
    }
    $redis->del(tier_rkey($key));
    tier_result(['case' => 'a', 'row' => $row, 'bytes' => strlen($raw), 'table_ops' => tier_median($tableOps),
        'redis_ops' => tier_median($redisOps), 'verified' => $passes * ($tableGets + $redisGets)]);
}
