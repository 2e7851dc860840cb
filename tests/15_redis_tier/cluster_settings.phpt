--TEST--
Shm\Table: redis tier: cluster://: a bad URL makes the table unavailable with a message saying what is wrong; seed nodes that do not answer give a clear error within table.redis_timeout (or a miss)
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; table_skip_unless_posix();
// 71 s under valgrind (11 PHP starts); the parser runs under ASan and UBSan in redis/test/test_redis_url.c,
// and the binding's path for an invalid table.redis is sentinel_settings.phpt's, which runs there.
table_skip_if_valgrind('71 s; the URL parser runs under ASan/UBSan in redis/test/test_redis_url.c');
require __DIR__ . '/tier.inc'; tier_skipif(); ?>
--FILE--
<?php
require __DIR__ . '/tier.inc';
$cases = [
    'cluster://',
    'cluster://?auth=x',
    'cluster://127.0.0.1:7000?db=5',
    'cluster://127.0.0.1:7000,127.0.0.1:99999',
    'cluster://127.0.0.1:7000,,127.0.0.1:7001',
    'cluster://127.0.0.1:7000?color=blue',
    'cluster://127.0.0.1:7000?master=m',
    'cluster://127.0.0.1:7000?cafile=/ca.pem',
];
foreach ($cases as $url) {
    $argv = tier_argv('try { Table::get("k"); echo "available\n"; } catch (Shm\TableException $e) { echo $e->getMessage(), "\n"; }',
        ['table.redis' => "\"$url\"", 'table.redis_namespaces' => 'shared', 'table.memory' => '8M']);
    $p = proc_open($argv, [1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
    echo stream_get_contents($pipes[1]), stream_get_contents($pipes[2]);
    proc_close($p);
}
// db=0 is the one database a cluster has: accepted.
echo tier_run(['sock' => '/nonexistent'], 'var_dump(Table::set("local", 1, null, "other"));',
    tier_url_ini('cluster://127.0.0.1:' . tier_free_port() . '?db=0') + ['table.redis_namespaces' => 'shared']);
// Valid, but no node listens: the table works; a tiered call throws a message naming the cluster, and
// takes about table.redis_timeout (5 s of slack: a loaded machine); with on_error=miss it is a miss.
// Each host's last line is its helper's pid (a helper was started to track the cluster), kept to wait for.
$down = 'cluster://127.0.0.1:' . tier_free_port() . ',127.0.0.1:' . tier_free_port();
$helpers = [];
$run = function (string $code, array $ini) use (&$helpers): void {
    $out = tier_run(['sock' => '/nonexistent'], $code . ' echo "helper ", Table::stats()["redis"]["helper_pid"], "\n";', $ini);
    if (preg_match('/^helper (\d+)$/m', $out, $m)) {
        $helpers[] = (int) $m[1];
        $out = str_replace($m[0] . "\n", '', $out);
    }
    echo $out;
};
$run(<<<'PHP'
var_dump(Table::set('local', 1, null, 'other'));
$t = hrtime(true);
try { Table::get('k', 'shared'); } catch (Shm\TableException $e) { echo $e->getMessage(), "\n"; }
echo 'bounded: ', var_export((hrtime(true) - $t) / 1e6 < 300 + 5000, true), "\n";
PHP, tier_url_ini($down) + ['table.redis_namespaces' => 'shared', 'table.redis_timeout' => '300']);
$run('var_dump(Table::get("k", "shared"), Table::set("k", 1, null, "shared"));',
    tier_url_ini($down) + ['table.redis_namespaces' => 'shared', 'table.redis_on_error' => 'miss']);
// Each helper leaves within about a second of its table's last user: nothing is left behind.
$helpers = array_filter($helpers);
echo 'helpers gone: ', var_export(table_wait_until(fn () => !array_filter($helpers, fn ($pid) => posix_kill($pid, 0))), true), "\n";
?>
--EXPECTF--
Shm\Table is unavailable: table.redis=cluster:// is not valid: no seed node hosts (expected cluster://host:port,host:port)
Shm\Table is unavailable: table.redis=cluster://?auth=*** is not valid: no seed node hosts (expected cluster://host:port,host:port)
Shm\Table is unavailable: table.redis=cluster://127.0.0.1:7000?db=5 is not valid: db=5: a Redis Cluster has only database 0 (leave db= out, or db=0)
Shm\Table is unavailable: table.redis=cluster://127.0.0.1:7000,127.0.0.1:99999 is not valid: seed node 2: bad port "99999" (expected 1 to 65535)
Shm\Table is unavailable: table.redis=cluster://127.0.0.1:7000,,127.0.0.1:7001 is not valid: seed node 2: empty host (two ',' in a row, or one at an end)
Shm\Table is unavailable: table.redis=cluster://127.0.0.1:7000?color=blue is not valid: unknown parameter "color"%s
Shm\Table is unavailable: table.redis=cluster://127.0.0.1:7000?master=m is not valid: master= is only for sentinel:// (sentinel://host:port,...?master=NAME); a cluster finds its masters itself
Shm\Table is unavailable: table.redis=cluster://127.0.0.1:7000?cafile=/ca.pem is not valid: cafile= is only for cluster+tls:// (and tls://, sentinel+tls://)
bool(true)
bool(true)
Shm\Table::get(): Redis (table.redis) failed: Redis cluster 127.0.0.1:%d,127.0.0.1:%d: no node answered CLUSTER SLOTS with a valid map (Redis at 127.0.0.1:%d: connection refused; Redis at 127.0.0.1:%d: connection refused); nothing was changed on this host
bounded: true
NULL
bool(false)
helpers gone: true
