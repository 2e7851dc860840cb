--TEST--
Shm\Table: redis tier: a build without hiredis refuses table.redis, saying which configure option adds it
--INI--
table.redis=tcp://127.0.0.1:6379
table.redis_namespaces=shared
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc';
try {
    if (array_key_exists('redis', Shm\Table::stats())) {
        die('skip this build has the Redis tier');
    }
} catch (Shm\TableException $e) {
    // Unavailable: what the test is about.
}
?>
--FILE--
<?php
foreach (['get', 'set'] as $m) {
    try {
        $m === 'get' ? Shm\Table::get('k') : Shm\Table::set('k', 1, null, 'other');
        echo "$m: no exception\n";
    } catch (Shm\TableException $e) {
        echo "$m: ", $e->getMessage(), "\n";
    }
}
?>
--EXPECT--
get: Shm\Table is unavailable: table.redis is set, but this build of table lacks Redis; rebuild it with --with-table-hiredis (needs libhiredis-dev), or leave table.redis empty
set: Shm\Table is unavailable: table.redis is set, but this build of table lacks Redis; rebuild it with --with-table-hiredis (needs libhiredis-dev), or leave table.redis empty
