--TEST--
Shm\Table: redis tier: settings: invalid values make the table unavailable with a message naming the setting
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; require __DIR__ . '/tier.inc'; tier_skipif(); ?>
--FILE--
<?php
require __DIR__ . '/tier.inc';
$cases = [
    ['table.redis' => 'redis://127.0.0.1'],
    ['table.redis' => 'tcp://127.0.0.1:99999'],
    ['table.redis' => 'tcp://127.0.0.1', 'table.redis_namespaces' => ''],
    ['table.redis' => 'tcp://127.0.0.1', 'table.redis_namespaces' => 'a,,b'],
    ['table.redis' => 'tcp://127.0.0.1', 'table.redis_namespaces' => 'a,'],
    ['table.redis' => 'tcp://127.0.0.1', 'table.redis_namespaces' => 'a', 'table.redis_timeout' => '0'],
    ['table.redis' => 'tcp://127.0.0.1', 'table.redis_namespaces' => 'a', 'table.redis_max_stale' => '5'],
    ['table.redis' => 'tcp://127.0.0.1', 'table.redis_namespaces' => 'a', 'table.redis_prefix' => str_repeat('p', 129)],
];
foreach ($cases as $ini) {
    $argv = tier_argv('try { Table::get("k"); echo "available\n"; } catch (Shm\TableException $e) { echo $e->getMessage(), "\n"; }', $ini + ['table.memory' => '8M']);
    $p = proc_open($argv, [1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
    echo stream_get_contents($pipes[1]);
    proc_close($p);
}
// A valid setting with Redis unreachable: the table works; tiered calls throw within the timeout.
echo tier_run(['sock' => '/nonexistent/redis.sock'], <<<'PHP'
var_dump(Table::set('local', 1, null, 'other'), Table::get('local', 'other'));
try { Table::set('k', 1, null, 'shared'); } catch (Shm\TableException $e) { echo $e->getMessage(), "\n"; }
try { Table::get('k', 'shared'); } catch (Shm\TableException $e) { echo $e->getMessage(), "\n"; }
var_dump(Table::stats()['redis']['enabled'], Table::stats()['redis']['fresh']);
PHP, ['table.redis_namespaces' => 'shared']);
?>
--EXPECTF--
Shm\Table is unavailable: table.redis=redis://127.0.0.1 is not valid: %s
Shm\Table is unavailable: table.redis=tcp://127.0.0.1:99999 is not valid: %s
Shm\Table is unavailable: table.redis is set but table.redis_namespaces is empty; list the namespaces Redis backs (comma-separated), or *
Shm\Table is unavailable: table.redis_namespaces=a,,b has an empty name; list names separated by commas, or *
Shm\Table is unavailable: table.redis_namespaces=a, ends with a comma
Shm\Table is unavailable: table.redis_timeout=0 is not valid; use milliseconds from 1 to 600000
Shm\Table is unavailable: table.redis_max_stale=5 is not valid; use milliseconds from 10 to 3600000
Shm\Table is unavailable: table.redis_prefix is longer than 128 bytes
bool(true)
int(1)
Shm\Table::set(): Redis (table.redis) failed: %s; nothing was changed on this host
Shm\Table::get(): Redis (table.redis) failed: %s; nothing was changed on this host
bool(true)
bool(false)
