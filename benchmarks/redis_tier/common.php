<?php
// Shared by the cases of benchmarks/redis_tier/run.sh. Each case is a PHP file run by run.sh with the
// table's tier settings (table.redis, table.redis_namespaces=tiered) and phpredis loaded; the Redis
// server's address comes in TIER_BENCH_HOST and TIER_BENCH_PORT, or, for a Redis Cluster (run.sh
// --cluster), the seed nodes in TIER_BENCH_CLUSTER (host:port,...), and phpredis is then a RedisCluster
// (tier_redis()): the same calls, each routed to its key's master. A case prints one line per result,
// `RESULT {json}`, and exits 1 (with the reason on stderr) when any read returns a wrong value or did not
// take the path it measures: a benchmark that measured something else has no figure to report.
declare(strict_types=1);

use Shm\Table;

const TIER_NS = 'tiered';

function tier_fail(string $msg): never
{
    fwrite(STDERR, basename($_SERVER['SCRIPT_NAME']) . ': ' . $msg . "\n");
    exit(1);
}

// The phpredis client the case compares with: Redis, or RedisCluster against a cluster.
function tier_redis(): Redis|RedisCluster
{
    $seeds = (string) getenv('TIER_BENCH_CLUSTER');
    if ($seeds !== '') {
        try {
            return new RedisCluster(null, explode(',', $seeds), 2.0, 2.0);
        } catch (RedisClusterException $e) {
            tier_fail('phpredis (RedisCluster) cannot connect: ' . $e->getMessage());
        }
    }
    $r = new Redis();
    if (!$r->connect((string) getenv('TIER_BENCH_HOST'), (int) getenv('TIER_BENCH_PORT'), 2.0)) {
        tier_fail('phpredis cannot connect');
    }
    return $r;
}

// What the result rows call the client: "Redis" or "RedisCluster".
function tier_client_name(Redis|RedisCluster $r): string
{
    return $r instanceof RedisCluster ? 'RedisCluster' : 'Redis';
}

// Write many keys (not timed): one pipeline, or against a cluster MSET, which phpredis splits by slot.
function tier_redis_set_many(Redis|RedisCluster $r, array $kv): void
{
    if ($r instanceof RedisCluster) {
        foreach (array_chunk($kv, 500, true) as $chunk) {
            if (!$r->mset($chunk)) {
                tier_fail('RedisCluster MSET failed');
            }
        }
        return;
    }
    $r->pipeline();
    foreach ($kv as $k => $v) {
        $r->set($k, $v);
    }
    $r->exec();
}

// The Redis key of (namespace, key), as the tier names it (docs/redis-tier.md), default prefix.
function tier_rkey(string $key, string $ns = TIER_NS): string
{
    return 'table:' . strlen($ns) . ':' . $ns . ':' . $key;
}

// What the tier stores in Redis for a string value: NUL, the type byte 5, the bytes.
function tier_encode_string(string $s): string
{
    return "\0\x05" . $s;
}

// Read $key (tiered) until this host's helper runs and the L1 is fresh; the helper is started by a read
// that finds the L1 not fresh. The timeout only catches a helper that never comes: a busy machine may take
// seconds to start one.
function tier_wait_fresh(string $key, float $timeout = 60.0): void
{
    $end = hrtime(true) + (int) ($timeout * 1e9);
    while (!Table::stats()['redis']['fresh']) {
        Table::get($key, TIER_NS);
        if (hrtime(true) > $end) {
            tier_fail('the L1 did not become fresh (no helper?): ' . json_encode(Table::stats()['redis']));
        }
        usleep(2000);
    }
}

// Redis's count of GET commands executed so far (each tier miss is one GET, pipelined with a PTTL); of
// a cluster, the sum over its masters.
function tier_get_calls(Redis|RedisCluster $r): int
{
    $infos = $r instanceof RedisCluster ? array_map(fn ($node) => $r->info($node, 'commandstats'), $r->_masters())
        : [$r->info('commandstats')];
    $calls = 0;
    foreach ($infos as $info) {
        $calls += preg_match('/calls=(\d+)/', $info['cmdstat_get'] ?? 'calls=0', $m) ? (int) $m[1] : 0;
    }
    return $calls;
}

function tier_hits(): int
{
    return Table::stats()['hits'];
}

// The table's own counts of what its tiered reads did (stats()['redis'], exact across processes): which
// calls the L1 answered, which went to Redis, and what disturbed the L1 (a flush, a stale L1, an
// invalidation). Unlike Redis's server-wide GET count, nothing another client does shows up here.
function tier_counts(): array
{
    $s = Table::stats()['redis'];
    return ['l1_hits' => $s['l1_hits'], 'reads' => $s['reads'], 'bypasses' => $s['bypasses'],
        'flushes' => $s['flushes'], 'invalidations' => $s['invalidations']];
}

// What moved between two tier_counts().
function tier_counts_delta(array $before, array $after): array
{
    $d = [];
    foreach ($after as $k => $v) {
        $d[$k] = $v - $before[$k];
    }
    return $d;
}

// Fill the L1 with $key and make sure the copy stays: the key's own write's invalidation comes back from
// Redis after set() returned (a loaded machine may take long), and drops a copy made before it. So: wait
// until it has been applied (the helper's count moves past $invalidationsBefore, an event), then read
// until a read is an L1 hit. The deadline only tells a hang from slowness.
function tier_warm(string $key, int $invalidationsBefore, float $timeout = 120.0): void
{
    $end = hrtime(true) + (int) ($timeout * 1e9);
    while (Table::stats()['redis']['invalidations'] <= $invalidationsBefore) {
        if (hrtime(true) > $end) {
            tier_fail("the invalidation of $key's own write never came back from Redis: " . json_encode(Table::stats()['redis']));
        }
        usleep(1000);
    }
    for (;;) {
        $c = tier_counts();
        Table::get($key, TIER_NS);
        if (tier_counts()['l1_hits'] - $c['l1_hits'] === 1) {
            return;
        }
        if (hrtime(true) > $end) {
            tier_fail("$key never became an L1 hit: " . json_encode(Table::stats()['redis']));
        }
        usleep(1000);
    }
}

function tier_result(array $fields): void
{
    echo 'RESULT ', json_encode($fields), "\n";
}

// Start this PHP, with the same settings, on $file: another "host" (its own anonymous table and helper).
// Returns [process, stdin, stdout]; stderr is inherited.
function tier_spawn(string $file, array $args): array
{
    $cmd = json_decode((string) getenv('TIER_BENCH_PHP'), true);
    if (!is_array($cmd) || !$cmd) {
        tier_fail('TIER_BENCH_PHP is not set (run this through run.sh)');
    }
    $p = proc_open(array_merge($cmd, [$file], array_map('strval', $args)),
        [0 => ['pipe', 'r'], 1 => ['pipe', 'w'], 2 => STDERR], $pipes);
    if (!is_resource($p)) {
        tier_fail("cannot start $file");
    }
    return [$p, $pipes[0], $pipes[1]];
}

// One line from a peer, or fail if it ended.
function tier_read_line($pipe, string $who): string
{
    $line = fgets($pipe);
    if ($line === false) {
        tier_fail("$who ended early");
    }
    return rtrim($line, "\n");
}

function tier_median(array $v): float
{
    sort($v);
    $n = count($v);
    return $n % 2 ? (float) $v[intdiv($n, 2)] : ($v[$n / 2 - 1] + $v[$n / 2]) / 2;
}
