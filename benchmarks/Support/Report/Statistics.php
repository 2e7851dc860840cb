<?php

declare(strict_types=1);

namespace Shm\Bench\Report;

/** Summary statistics over non-empty lists of numbers. */
final class Statistics
{
    /** @param non-empty-list<float> $values */
    public static function median(array $values): float
    {
        sort($values);
        $middle = intdiv(count($values), 2);

        return count($values) % 2 === 1 ? $values[$middle] : ($values[$middle - 1] + $values[$middle]) / 2;
    }

    /** @param non-empty-list<float> $values */
    public static function mean(array $values): float
    {
        return array_sum($values) / count($values);
    }

    /** Sample standard deviation over the mean, in percent; 0 for a single value. */
    public static function rstdevPercent(array $values): float
    {
        $count = count($values);
        $mean = self::mean($values);
        if ($count < 2 || $mean == 0.0) {
            return 0.0;
        }
        $squares = array_sum(array_map(static fn (float $value): float => ($value - $mean) ** 2, $values));

        return sqrt($squares / ($count - 1)) / $mean * 100;
    }
}
