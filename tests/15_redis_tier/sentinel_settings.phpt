--TEST--
Shm\Table: redis tier: sentinel://: a bad URL makes the table unavailable with a message saying what is wrong; Sentinels that cannot name the master give a clear error within table.redis_timeout (or a miss)
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; require __DIR__ . '/tier.inc'; tier_skipif(); ?>
--FILE--
<?php
require __DIR__ . '/tier.inc';
$cases = [
    'sentinel://127.0.0.1:26379',
    'sentinel://?master=m',
    'sentinel://127.0.0.1:26379,,127.0.0.1:26380?master=m',
    'sentinel://127.0.0.1:99999?master=m',
    'sentinel://127.0.0.1?master=m&mastr=x',
    'sentinel://127.0.0.1?master=m&sentinel_auth=s3cret&sentinel_auth=s3cret',
    'tcp://127.0.0.1?master=m',
];
foreach ($cases as $url) {
    $argv = tier_argv('try { Table::get("k"); echo "available\n"; } catch (Shm\TableException $e) { echo $e->getMessage(), "\n"; }',
        ['table.redis' => "\"$url\"", 'table.redis_namespaces' => 'shared', 'table.memory' => '8M']);
    $p = proc_open($argv, [1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
    echo stream_get_contents($pipes[1]);
    proc_close($p);
}
// Valid, but no Sentinel listens: the table works; a tiered call throws a message naming the master, and
// takes about table.redis_timeout (5 s of slack: a loaded machine); with on_error=miss it is a miss.
$down = 'sentinel://127.0.0.1:' . tier_free_port() . ',127.0.0.1:' . tier_free_port() . '?master=mymaster';
echo tier_run(['sock' => '/nonexistent'], <<<'PHP'
var_dump(Table::set('local', 1, null, 'other'));
$t = hrtime(true);
try { Table::get('k', 'shared'); } catch (Shm\TableException $e) { echo $e->getMessage(), "\n"; }
echo 'bounded: ', var_export((hrtime(true) - $t) / 1e6 < 300 + 5000, true), "\n";
PHP, ['table.redis' => "\"$down\"", 'table.redis_namespaces' => 'shared', 'table.redis_timeout' => '300']);
echo tier_run(['sock' => '/nonexistent'], 'var_dump(Table::get("k", "shared"), Table::set("k", 1, null, "shared"));',
    ['table.redis' => "\"$down\"", 'table.redis_namespaces' => 'shared', 'table.redis_on_error' => 'miss']);
?>
--EXPECTF--
Shm\Table is unavailable: table.redis=sentinel://127.0.0.1:26379 is not valid: no master name (sentinel:// needs ?master=NAME, the name the Sentinels monitor)
Shm\Table is unavailable: table.redis=sentinel://?master=m is not valid: no Sentinel hosts (expected sentinel://host:port,host:port?master=NAME)
Shm\Table is unavailable: table.redis=sentinel://127.0.0.1:26379,,127.0.0.1:26380?master=m is not valid: Sentinel 2: empty host (two ',' in a row, or one at an end)
Shm\Table is unavailable: table.redis=sentinel://127.0.0.1:99999?master=m is not valid: Sentinel 1: bad port "99999" (expected 1 to 65535)
Shm\Table is unavailable: table.redis=sentinel://127.0.0.1?master=m&mastr=x is not valid: unknown parameter "mastr" (known: master, user, auth, auth_env, auth_file, sentinel_auth, db)
Shm\Table is unavailable: table.redis=sentinel://127.0.0.1?master=m&sentinel_auth=***&sentinel_auth=*** is not valid: sentinel_auth= is given twice
Shm\Table is unavailable: table.redis=tcp://127.0.0.1?master=m is not valid: master= is only for sentinel:// (sentinel://host:port,...?master=NAME)
bool(true)
Shm\Table::get(): Redis (table.redis) failed: Redis master mymaster: no Sentinel named a master that could be used: Sentinel at 127.0.0.1:%d: connection refused; nothing was changed on this host
bounded: true
NULL
bool(false)
