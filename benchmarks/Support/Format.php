<?php

declare(strict_types=1);

namespace Shm\Bench;

/** How numbers look in the text reports. */
final class Format
{
    public static function count(float $value): string
    {
        return number_format($value);
    }

    /** Binary units: 0 B, 512 B, 1.50 KiB, 2.13 MiB. */
    public static function bytes(int $bytes): string
    {
        $units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
        $unit = 0;
        $value = (float) $bytes;
        while ($value >= 1024 && $unit < count($units) - 1) {
            $value /= 1024;
            $unit++;
        }

        return $unit === 0 ? "$bytes B" : sprintf('%.2f %s', $value, $units[$unit]);
    }

    public static function percent(float $value, bool $signed = false): string
    {
        return sprintf($signed && $value > 0 ? '+%.2f%%' : '%.2f%%', $value);
    }

    public static function factor(float $value): string
    {
        return sprintf('%.2fx', $value);
    }
}
