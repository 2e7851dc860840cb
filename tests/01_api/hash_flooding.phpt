--TEST--
Shm\Table: hash: 4,000 keys crafted to share one hash under the old seedless hash spread over the buckets
--INI--
table.memory=4M
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

/* The old key hash of a 16-byte key was mix((h1 ^ w2 * M2) * M1), h1 depending on the first 8 bytes
 * only: choosing the last 8 bytes as (h1 ^ target) * M2^-1 gives every key one hash, with no search.
 * PHP ints turn into floats on overflow, so the arithmetic modulo 2^64 is done on 16-bit limbs. */
function u64(int $hi, int $lo): int { return ($hi << 32) | $lo; }
function mul64(int $a, int $b): int
{
    $x = [$a & 0xFFFF, ($a >> 16) & 0xFFFF, ($a >> 32) & 0xFFFF, ($a >> 48) & 0xFFFF];
    $y = [$b & 0xFFFF, ($b >> 16) & 0xFFFF, ($b >> 32) & 0xFFFF, ($b >> 48) & 0xFFFF];
    $r = [0, 0, 0, 0];
    for ($i = 0; $i < 4; $i++) {
        for ($j = 0; $i + $j < 4; $j++) {
            $r[$i + $j] += $x[$i] * $y[$j];
        }
    }
    $carry = 0;
    for ($i = 0; $i < 4; $i++) {
        $r[$i] += $carry;
        $carry = $r[$i] >> 16;
        $r[$i] &= 0xFFFF;
    }
    return ($r[3] << 48) | ($r[2] << 32) | ($r[1] << 16) | $r[0];
}
function lsr(int $a, int $n): int { return ($a >> $n) & (PHP_INT_MAX >> ($n - 1)); }
$M1 = u64(0x9E3779B9, 0x7F4A7C15);
$M2 = u64(0xC2B2AE3D, 0x27D4EB4F);
$M2inv = u64(0x0BA79078, 0x168D4BAF);
$h0 = $M1 ^ mul64(16, $M2);
$target = u64(0x5EED5EED, 0x5EED5EED);
$keys = [];
$oldHashes = [];
for ($i = 0; $i < 4000; $i++) {
    $head = sprintf('k%07d', $i);
    $w1 = unpack('P', $head)[1];
    $h = mul64($h0 ^ mul64($w1, $M2), $M1);
    $h ^= lsr($h, 29);
    $w2 = mul64($h ^ $target, $M2inv);
    $keys[] = $head . pack('P', $w2);
    $oldHashes[mul64($h ^ mul64($w2, $M2), $M1)] = true;   /* the old hash before its final bijection */
}
echo 'distinct keys: ', count(array_unique($keys)), ', distinct old hashes: ', count($oldHashes), "\n";

foreach ($keys as $i => $key) {
    Table::set($key, $i);
}
$got = Table::getMany($keys);
$right = 0;
foreach ($keys as $i => $key) {
    $right += ($got[$key] ?? null) === $i;
}
$s = Table::stats();
echo "stored and read back: $right\n";
echo 'entries: ', $s['entries'], "\n";
/* 4,000 random keys over 16,384 buckets: a longest chain of about 4; the old hash made one of 4,000.
 * max_chain is the longest chain any write built, so it covers the whole attack, not just its end. */
echo 'buckets: ', $s['buckets'], "\n";
echo 'longest chain small: ', var_export($s['max_chain'] >= 1 && $s['max_chain'] <= 12, true), "\n";

/* A crafted key computes and stores its own value in remember(), like any other. */
var_dump(Table::remember($keys[0] . 'x', fn() => 'computed'), Table::get($keys[0] . 'x'));
Table::deleteMany($keys);
var_dump(Table::count());
?>
--EXPECT--
distinct keys: 4000, distinct old hashes: 1
stored and read back: 4000
entries: 4000
buckets: 16384
longest chain small: true
string(8) "computed"
string(8) "computed"
int(1)
