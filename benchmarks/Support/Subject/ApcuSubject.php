<?php

declare(strict_types=1);

namespace Shm\Bench\Subject;

use Shm\Bench\Dataset;
use Shm\Bench\Probe;

/**
 * APCu through apcu_*(). Its name carries apc.serializer ("APCu(php)", "APCu(default)"), which decides how
 * arrays are stored: serialize() with "php", APCu's own deep copy with "default".
 */
final class ApcuSubject extends InMemorySubject implements CountingSubject
{
    public static function serializer(): string
    {
        return (string) ini_get('apc.serializer') ?: 'default';
    }

    public function name(): string
    {
        return 'APCu(' . self::serializer() . ')';
    }

    public function family(): string
    {
        return 'APCu';
    }

    public function unavailableReason(): ?string
    {
        return Probe::apcu();
    }

    public function version(): string
    {
        return 'APCu ' . phpversion('apcu');
    }

    public function settings(): array
    {
        return ['serializer' => self::serializer()];
    }

    public function store(string $key, mixed $value): bool
    {
        return apcu_store($key, $value);
    }

    public function read(string $key): array
    {
        $value = apcu_fetch($key, $found);

        return [$found, $value];
    }

    public function end(Dataset $dataset): void
    {
        apcu_delete($dataset->keys);
    }

    public function getBatch(array $keys, int $from, int $count): int
    {
        $size = count($keys);
        $misses = 0;
        for ($i = $from, $end = $from + $count; $i < $end; $i++) {
            apcu_fetch($keys[$i % $size], $found);
            if (!$found) {
                $misses++;
            }
        }

        return $misses;
    }

    public function setBatch(array $keys, array $values, int $from, int $count): int
    {
        $size = count($keys);
        $failures = 0;
        for ($i = $from, $end = $from + $count; $i < $end; $i++) {
            if (!apcu_store($keys[$i % $size], $values[$i % $size])) {
                $failures++;
            }
        }

        return $failures;
    }

    public function incrementBatch(array $keys, int $from, int $count): int
    {
        $size = count($keys);
        $failures = 0;
        for ($i = $from, $end = $from + $count; $i < $end; $i++) {
            apcu_inc($keys[$i % $size], 1, $success);
            if (!$success) {
                $failures++;
            }
        }

        return $failures;
    }
}
