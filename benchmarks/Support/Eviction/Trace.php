<?php

declare(strict_types=1);

namespace Shm\Bench\Eviction;

/**
 * The eviction benchmark's workload: a fixed-seed sequence of key ids drawn from a Zipf distribution
 * (exponent 0.99 by default) over $keys keys, and a value size per key, log-normal with a median of
 * 1 KiB, clamped to [100 B, 100 KiB]. The same seed gives the same trace in every process, so each
 * subject, run in a PHP of its own, replays exactly the same operations. Values are incompressible
 * bytes, or with $compressible text-like bytes (words drawn from a small vocabulary) that lz4, zstd and
 * zlib shrink about 3 to 4 times. The first $warmup operations (a third) fill the caches; hit ratios
 * count the rest.
 */
final class Trace
{
    public const MIN_SIZE = 100;
    public const MAX_SIZE = 102400;
    public const MEDIAN = 1024.0;
    public const SIGMA = 1.2;

    /** @var list<int> key ids, most popular first is id 0 */
    public readonly array $ops;

    public readonly int $warmup;

    /** Twice the largest value: a value is a slice of it that starts at an offset drawn from its id. */
    private readonly string $bytes;

    public function __construct(public readonly int $length, public readonly int $keys,
                                public readonly int $seed, public readonly float $exponent = 0.99,
                                public readonly bool $compressible = false)
    {
        $this->warmup = intdiv($length, 3);
        // Cumulative Zipf weights, then one binary search per operation.
        $cdf = [];
        $sum = 0.0;
        for ($rank = 1; $rank <= $keys; $rank++) {
            $sum += 1.0 / ($rank ** $exponent);
            $cdf[] = $sum;
        }
        mt_srand($seed, MT_RAND_MT19937);
        $ops = [];
        $scale = $sum / mt_getrandmax();
        for ($i = 0; $i < $length; $i++) {
            $u = mt_rand() * $scale;
            $lo = 0;
            $hi = $keys - 1;
            while ($lo < $hi) {
                $mid = ($lo + $hi) >> 1;
                if ($cdf[$mid] < $u) {
                    $lo = $mid + 1;
                } else {
                    $hi = $mid;
                }
            }
            $ops[] = $lo;
        }
        $this->ops = $ops;
        $this->bytes = $compressible ? self::text(2 * self::MAX_SIZE, $seed) : self::noise(2 * self::MAX_SIZE, $seed);
    }

    /** The value of key $id: $size bytes, the same in every process. */
    public function value(int $id, int $size): string
    {
        $at = unpack('N', hash('xxh32', "{$this->seed}:$id", true))[1] % self::MAX_SIZE;

        return substr($this->bytes, $at, $size);
    }

    /** $n incompressible bytes: xxh128 in counter mode. */
    private static function noise(int $n, int $seed): string
    {
        $out = '';
        for ($i = 0; strlen($out) < $n; $i++) {
            $out .= hash('xxh128', "$seed:$i", true);
        }

        return substr($out, 0, $n);
    }

    /** $n bytes of JSON rows, as a cached query result or API response holds: the same fields in every
     * row, their values drawn from small sets and a few numbers. */
    private static function text(int $n, int $seed): string
    {
        mt_srand($seed + 1, MT_RAND_MT19937);
        $words = ['alpha', 'bravo', 'cedar', 'delta', 'ember', 'fjord', 'gamma', 'harbor', 'indigo', 'juniper',
                  'kepler', 'lumen', 'maple', 'nectar', 'orbit', 'prism', 'quartz', 'raven', 'sierra', 'tundra'];
        $status = ['active', 'pending', 'archived', 'deleted'];
        $out = '[';
        for ($id = 1; strlen($out) < $n; $id++) {
            $out .= sprintf('{"id":%d,"name":"%s %s","status":"%s","owner_id":%d,"score":%d.%02d,"tags":["%s","%s"],'
                . '"created_at":"2026-%02d-%02dT%02d:%02d:00Z"},',
                $id * 7 + mt_rand(0, 6), $words[mt_rand(0, 19)], $words[mt_rand(0, 19)], $status[mt_rand(0, 3)],
                mt_rand(1, 5000), mt_rand(0, 999), mt_rand(0, 99), $words[mt_rand(0, 19)], $words[mt_rand(0, 19)],
                mt_rand(1, 12), mt_rand(1, 28), mt_rand(0, 23), mt_rand(0, 59));
        }

        return substr($out, 0, $n);
    }

    /** The value size of key $id: a pure function of the id and the seed. */
    public function size(int $id): int
    {
        $h = hash('xxh64', "{$this->seed}:$id", true);
        $a = unpack('N2', $h);
        $u1 = ($a[1] + 1) / 4294967297;
        $u2 = $a[2] / 4294967296;
        $z = sqrt(-2.0 * log($u1)) * cos(2.0 * M_PI * $u2);

        return (int) max(self::MIN_SIZE, min(self::MAX_SIZE, self::MEDIAN * exp(self::SIGMA * $z)));
    }

    public static function key(int $id): string
    {
        return "k$id";
    }
}
