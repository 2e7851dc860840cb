--TEST--
Shm\Table: redis tier: a compressed Redis value's declared length is checked before anything is allocated: a Shm\TableException, never "Allowed memory size exhausted"
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; table_skip_unless_posix(); table_skip_unless_compressor('lz4'); table_skip_unless_compressor('zstd'); require __DIR__ . '/tier.inc'; tier_skipif(); ?>
--FILE--
<?php
require __DIR__ . '/tier.inc';
/* Issue 33, finding 4, from Redis. A compressed value is NUL, type 10, a header (algorithm, inner type,
 * 0, declared length) and the compressed bytes. Before the fix the declared length was allocated before
 * decompressing: a few crafted bytes made the reader allocate up to 4 GiB, and PHP ended the request
 * with a fatal error no caller can catch. Now it must be what the compressed bytes can produce (lz4: 255
 * bytes per byte; zstd: the frame's content size, its blocks able to hold it), and must fit in what
 * memory_limit leaves; anything else is a Shm\TableException. */
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

/* A compressed string as the tier stores it in Redis (the header in host order: little-endian here). */
function compressed(int $algorithm, int $declared, string $bytes): string
{
    return "\0\x0a" . pack('CCvV', $algorithm, 5, 0, $declared) . $bytes;
}

/* A zstd frame of $blocks RLE blocks of 128 KiB of zero bytes, declaring $content bytes. */
function zstd_rle(int $content, int $blocks): string
{
    $f = "\x28\xb5\x2f\xfd\xc0\x58" . pack('P', $content);
    for ($i = 0; $i < $blocks; $i++) {
        $head = (128 * 1024) << 3 | 1 << 1 | ($i + 1 === $blocks ? 1 : 0);
        $f .= substr(pack('V', $head), 0, 3) . "\0";
    }
    return $f;
}

echo tier_run($r, 'var_dump(Table::set("probe", "x", null, "shared"));');
$prefix = substr(tier_cli($r, 'KEYS', '*probe'), 0, -strlen('probe'));

$eight = 8 * 1024 * 1024;
$cases = [
    'lz4 declaring 2 GiB in 16 bytes' => [compressed(1, 0x7E000000, str_repeat("\xff", 16)), []],
    'lz4 declaring 4 GiB' => [compressed(1, 0xFFFFFFFF, str_repeat("\xff", 16)), []],
    'zstd declaring 4 GiB in a 128 KiB frame' => [compressed(2, 0xFFFFFFFF, zstd_rle(0xFFFFFFFF, 1)), []],
    'zstd whose frame says otherwise' => [compressed(2, 0xFFFFFFF0, zstd_rle(1 << 17, 1)), []],
    'an unknown algorithm' => [compressed(7, 100, 'abc'), []],
    'a header cut short' => ["\0\x0a\x01\x05", []],
    // A valid 8 MiB value: it does not fit in memory_limit=4M, and fits in 128M.
    'zstd, 8 MiB, memory_limit=4M' => [compressed(2, $eight, zstd_rle($eight, 64)), ['memory_limit' => '4M']],
    'zstd, 8 MiB, memory_limit=128M' => [compressed(2, $eight, zstd_rle($eight, 64)), ['memory_limit' => '128M']],
];
// Each value under a key of its own; the cases of one memory_limit are read by one host (a host each
// took 2 s under valgrind), in the order listed.
$hosts = [];
foreach (array_keys($cases) as $i => $what) {
    [$bytes, $ini] = $cases[$what];
    raw_set($r, $prefix . "k$i", $bytes);
    $hosts[json_encode($ini)][$what] = "k$i";
}
$code = <<<'PHP'
foreach ($keys as $what => $k) {
    echo "$what:\n";
    foreach (['get' => fn () => Table::get($k, 'shared'), 'getMany' => fn () => Table::getMany([$k], 'shared')[$k] ?? null] as $m => $f) {
        try {
            $v = $f();
            echo "  $m: ", is_string($v) ? 'a string of ' . strlen($v) . ' bytes, ' . (trim($v, "\0") === '' ? 'all zero' : 'NOT ZERO') : json_encode($v), "\n";
        } catch (Shm\TableException $e) {
            echo "  $m: ", get_class($e), ": ", $e->getMessage(), "\n";
        }
    }
    echo "  alive\n";
}
PHP;
foreach ($hosts as $ini => $keys) {
    echo tier_run($r, '$keys = ' . var_export($keys, true) . ';' . $code, json_decode($ini, true));
}
?>
--EXPECT--
bool(true)
lz4 declaring 2 GiB in 16 bytes:
  get: Shm\TableException: Shm\Table::get(): the stored value is corrupt (a Redis value of a tiered namespace that this extension does not write: a declared length longer than its lz4 bytes can hold)
  getMany: Shm\TableException: Shm\Table::getMany(): the stored value is corrupt (a Redis value of a tiered namespace that this extension does not write: a declared length longer than its lz4 bytes can hold)
  alive
lz4 declaring 4 GiB:
  get: Shm\TableException: Shm\Table::get(): the stored value is corrupt (a Redis value of a tiered namespace that this extension does not write: a declared length longer than its lz4 bytes can hold)
  getMany: Shm\TableException: Shm\Table::getMany(): the stored value is corrupt (a Redis value of a tiered namespace that this extension does not write: a declared length longer than its lz4 bytes can hold)
  alive
zstd declaring 4 GiB in a 128 KiB frame:
  get: Shm\TableException: Shm\Table::get(): the stored value is corrupt (a Redis value of a tiered namespace that this extension does not write: a declared length longer than its zstd blocks can hold)
  getMany: Shm\TableException: Shm\Table::getMany(): the stored value is corrupt (a Redis value of a tiered namespace that this extension does not write: a declared length longer than its zstd blocks can hold)
  alive
zstd whose frame says otherwise:
  get: Shm\TableException: Shm\Table::get(): the stored value is corrupt (a Redis value of a tiered namespace that this extension does not write: a zstd frame whose content size is not the declared length)
  getMany: Shm\TableException: Shm\Table::getMany(): the stored value is corrupt (a Redis value of a tiered namespace that this extension does not write: a zstd frame whose content size is not the declared length)
  alive
an unknown algorithm:
  get: Shm\TableException: Shm\Table::get(): the stored value is corrupt (a Redis value of a tiered namespace that this extension does not write: compressed with an unknown algorithm)
  getMany: Shm\TableException: Shm\Table::getMany(): the stored value is corrupt (a Redis value of a tiered namespace that this extension does not write: compressed with an unknown algorithm)
  alive
a header cut short:
  get: Shm\TableException: Shm\Table::get(): the stored value is corrupt (a Redis value of a tiered namespace that this extension does not write: a compressed value shorter than its header)
  getMany: Shm\TableException: Shm\Table::getMany(): the stored value is corrupt (a Redis value of a tiered namespace that this extension does not write: a compressed value shorter than its header)
  alive
zstd, 8 MiB, memory_limit=4M:
  get: Shm\TableException: Shm\Table::get(): the stored value cannot be read (it is 8388608 bytes decompressed, more than memory_limit leaves)
  getMany: Shm\TableException: Shm\Table::getMany(): the stored value cannot be read (it is 8388608 bytes decompressed, more than memory_limit leaves)
  alive
zstd, 8 MiB, memory_limit=128M:
  get: a string of 8388608 bytes, all zero
  getMany: a string of 8388608 bytes, all zero
  alive
