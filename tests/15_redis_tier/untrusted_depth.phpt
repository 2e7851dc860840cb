--TEST--
Shm\Table: redis tier: a serialized Redis value nested deeper than 4096 levels is refused before it is unserialized: a Shm\TableException, never a crash
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; table_skip_unless_posix(); require __DIR__ . '/tier.inc'; tier_skipif(); ?>
--FILE--
<?php
require __DIR__ . '/tier.inc';
/* PHP's unserializer recurses once per level, and the table lifts unserialize_max_depth for the values
 * it wrote itself: a Redis client that planted a value nested a few hundred thousand levels deep ended
 * the reading process on a stack overflow (SIGSEGV), whatever table.redis_allowed_classes said. */
$r = tier_redis_start();
$s = stream_socket_client('unix://' . $r['sock']);
$nested = fn (int $levels) => "\0\x07" . str_repeat('a:1:{i:0;', $levels - 1) . 'O:8:"stdClass":0:{}' . str_repeat('}', $levels - 1);
$planted = ['4096 levels' => $nested(4096), '4097 levels' => $nested(4097), '300000 levels' => $nested(300000)];
$keys = [];
foreach (array_keys($planted) as $i => $what) {
    $key = "table:6:shared:k$i";
    fwrite($s, sprintf("*3\r\n\$3\r\nSET\r\n\$%d\r\n%s\r\n\$%d\r\n%s\r\n", strlen($key), $key, strlen($planted[$what]), $planted[$what]));
    fgets($s);
    $keys[$what] = "k$i";
}
fclose($s);
foreach (['*', 'stdClass'] as $setting) {
    echo "table.redis_allowed_classes=$setting\n", tier_run($r, '$keys = ' . var_export($keys, true) . ';' . <<<'PHP'
foreach ($keys as $what => $k) {
    foreach (['get' => fn () => Table::get($k, 'shared'), 'getMany' => fn () => Table::getMany([$k], 'shared')[$k]] as $m => $f) {
        try { $v = $f(); for ($d = 0; is_array($v); $d++) { $v = $v[0]; } echo "  $what, $m: ", $d + 1, ' levels, ', get_class($v), "\n"; }
        catch (Shm\TableException $e) { echo "  $what, $m: ", $e->getMessage(), "\n"; }
    }
}
echo "  alive\n";
PHP, ['table.redis_allowed_classes' => $setting]);
}
?>
--EXPECT--
table.redis_allowed_classes=*
  4096 levels, get: 4096 levels, stdClass
  4096 levels, getMany: 4096 levels, stdClass
  4097 levels, get: Shm\Table::get(): the stored value cannot be read (arrays and objects nested deeper than 4096 levels)
  4097 levels, getMany: Shm\Table::getMany(): the stored value cannot be read (arrays and objects nested deeper than 4096 levels)
  300000 levels, get: Shm\Table::get(): the stored value cannot be read (arrays and objects nested deeper than 4096 levels)
  300000 levels, getMany: Shm\Table::getMany(): the stored value cannot be read (arrays and objects nested deeper than 4096 levels)
  alive
table.redis_allowed_classes=stdClass
  4096 levels, get: 4096 levels, stdClass
  4096 levels, getMany: 4096 levels, stdClass
  4097 levels, get: Shm\Table::get(): the stored value cannot be read (arrays and objects nested deeper than 4096 levels)
  4097 levels, getMany: Shm\Table::getMany(): the stored value cannot be read (arrays and objects nested deeper than 4096 levels)
  300000 levels, get: Shm\Table::get(): the stored value cannot be read (arrays and objects nested deeper than 4096 levels)
  300000 levels, getMany: Shm\Table::getMany(): the stored value cannot be read (arrays and objects nested deeper than 4096 levels)
  alive
