<?php

declare(strict_types=1);

namespace Shm\Bench\Eviction;

/**
 * The eviction benchmark's workload: a fixed-seed sequence of key ids drawn from a Zipf distribution
 * (exponent 0.99 by default) over $keys keys, and a value size per key, log-normal with a median of
 * 1 KiB, clamped to [100 B, 100 KiB]. The same seed gives the same trace in every process, so each
 * subject, run in a PHP of its own, replays exactly the same operations.
 */
final class Trace
{
    public const MIN_SIZE = 100;
    public const MAX_SIZE = 102400;
    public const MEDIAN = 1024.0;
    public const SIGMA = 1.2;

    /** @var list<int> key ids, most popular first is id 0 */
    public readonly array $ops;

    public function __construct(public readonly int $length, public readonly int $keys,
                                public readonly int $seed, public readonly float $exponent = 0.99)
    {
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
