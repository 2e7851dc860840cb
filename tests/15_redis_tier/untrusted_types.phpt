--TEST--
Shm\Table: redis tier: a Redis value of a type the tier never writes (a zero-copy image above all, which holds pointers) is corrupt: a Shm\TableException, never a crash
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; table_skip_unless_posix(); require __DIR__ . '/tier.inc'; tier_skipif(); ?>
--FILE--
<?php
require __DIR__ . '/tier.inc';
/* Issue 33, finding 3. Any client of the Redis can write any bytes under a tiered key; the tier writes
 * an integer as text and anything else as NUL, type byte, encoded bytes. Each value below is written
 * raw (RESP over the socket: redis-cli cannot pass a NUL), then read by a host of its own through get()
 * and getMany(). Before the fix, the image (type 9) was decoded as a zend_array and the host died. */
$r = tier_redis_start();

function raw_set(array $r, string $key, string $value): void
{
    $s = stream_socket_client('unix://' . $r['sock']);
    fwrite($s, sprintf("*3\r\n\$3\r\nSET\r\n\$%d\r\n%s\r\n\$%d\r\n%s\r\n", strlen($key), $key, strlen($value), $value));
    $ok = fgets($s);
    fclose($s);
    if ($ok !== "+OK\r\n") {
        throw new RuntimeException('SET answered ' . var_export($ok, true));
    }
}

// The Redis name of key "k" of namespace "shared", as the tier spells it.
echo tier_run($r, 'var_dump(Table::set("probe", "x", null, "shared"));');
$prefix = substr(tier_cli($r, 'KEYS', '*probe'), 0, -strlen('probe'));

$cases = [
    'a zero-copy image' => "\0\x09" . str_repeat("\x41", 256),
    'a zero-copy image, no bytes' => "\0\x09",
    'an integer behind the marker' => "\0\x03" . pack('q', 5),
    'type 11' => "\0\x0bxyz",
    'a split type' => "\0\x85abc",
    'true with a byte' => "\0\x02x",
    'a float of 3 bytes' => "\0\x04abc",
    'the marker alone' => "\0",
    'an integer with a leading zero' => '042',
    // What the tier does write reads back.
    'a string' => "\0\x05hello",
    'an integer' => '-42',
    'true' => "\0\x02",
];
// Each value under a key of its own, all read by one host (a host each took 2 s under valgrind).
$keys = [];
foreach (array_keys($cases) as $i => $what) {
    raw_set($r, $prefix . "k$i", $cases[$what]);
    $keys[$what] = "k$i";
}
$code = '$keys = ' . var_export($keys, true) . ';' . <<<'PHP'
foreach ($keys as $what => $k) {
    echo "$what:\n";
    foreach (['get' => fn () => Table::get($k, 'shared'), 'getMany' => fn () => Table::getMany([$k], 'shared')] as $m => $f) {
        try { $v = json_encode($f()); } catch (Shm\TableException $e) { $v = get_class($e) . ': ' . $e->getMessage(); }
        echo "  $m: ", str_replace("\"$k\"", '"k"', $v), "\n";
    }
    echo "  alive\n";
}
PHP;
echo tier_run($r, $code);
?>
--EXPECT--
bool(true)
a zero-copy image:
  get: Shm\TableException: Shm\Table::get(): the stored value is corrupt (a Redis value of a tiered namespace that this extension does not write: a zero-copy image, which the tier never writes)
  getMany: Shm\TableException: Shm\Table::getMany(): the stored value is corrupt (a Redis value of a tiered namespace that this extension does not write: a zero-copy image, which the tier never writes)
  alive
a zero-copy image, no bytes:
  get: Shm\TableException: Shm\Table::get(): the stored value is corrupt (a Redis value of a tiered namespace that this extension does not write: a zero-copy image, which the tier never writes)
  getMany: Shm\TableException: Shm\Table::getMany(): the stored value is corrupt (a Redis value of a tiered namespace that this extension does not write: a zero-copy image, which the tier never writes)
  alive
an integer behind the marker:
  get: Shm\TableException: Shm\Table::get(): the stored value is corrupt (a Redis value of a tiered namespace that this extension does not write: a type the tier never writes)
  getMany: Shm\TableException: Shm\Table::getMany(): the stored value is corrupt (a Redis value of a tiered namespace that this extension does not write: a type the tier never writes)
  alive
type 11:
  get: Shm\TableException: Shm\Table::get(): the stored value is corrupt (a Redis value of a tiered namespace that this extension does not write: a type the tier never writes)
  getMany: Shm\TableException: Shm\Table::getMany(): the stored value is corrupt (a Redis value of a tiered namespace that this extension does not write: a type the tier never writes)
  alive
a split type:
  get: Shm\TableException: Shm\Table::get(): the stored value is corrupt (a Redis value of a tiered namespace that this extension does not write: a type the tier never writes)
  getMany: Shm\TableException: Shm\Table::getMany(): the stored value is corrupt (a Redis value of a tiered namespace that this extension does not write: a type the tier never writes)
  alive
true with a byte:
  get: Shm\TableException: Shm\Table::get(): the stored value is corrupt (a Redis value of a tiered namespace that this extension does not write: a null or boolean with bytes)
  getMany: Shm\TableException: Shm\Table::getMany(): the stored value is corrupt (a Redis value of a tiered namespace that this extension does not write: a null or boolean with bytes)
  alive
a float of 3 bytes:
  get: Shm\TableException: Shm\Table::get(): the stored value is corrupt (a Redis value of a tiered namespace that this extension does not write: a float that is not 8 bytes)
  getMany: Shm\TableException: Shm\Table::getMany(): the stored value is corrupt (a Redis value of a tiered namespace that this extension does not write: a float that is not 8 bytes)
  alive
the marker alone:
  get: Shm\TableException: Shm\Table::get(): the stored value is corrupt (a Redis value of a tiered namespace that this extension does not write: neither an integer nor a value this extension encodes)
  getMany: Shm\TableException: Shm\Table::getMany(): the stored value is corrupt (a Redis value of a tiered namespace that this extension does not write: neither an integer nor a value this extension encodes)
  alive
an integer with a leading zero:
  get: Shm\TableException: Shm\Table::get(): the stored value is corrupt (a Redis value of a tiered namespace that this extension does not write: neither an integer nor a value this extension encodes)
  getMany: Shm\TableException: Shm\Table::getMany(): the stored value is corrupt (a Redis value of a tiered namespace that this extension does not write: neither an integer nor a value this extension encodes)
  alive
a string:
  get: "hello"
  getMany: {"k":"hello"}
  alive
an integer:
  get: -42
  getMany: {"k":-42}
  alive
true:
  get: true
  getMany: {"k":true}
  alive
