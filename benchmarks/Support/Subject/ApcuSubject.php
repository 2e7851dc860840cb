<?php

declare(strict_types=1);

namespace Shm\Bench\Subject;

use Shm\Bench\Dataset;
use Shm\Bench\Probe;

/**
 * APCu through apcu_*(). Its name carries apc.serializer ("APCu(php)", "APCu(default)"), which decides how
 * arrays are stored: serialize() with "php", APCu's own deep copy with "default".
 *
 * The same code runs as "APCu(table)" where the functions are the table extension's (table.apcu_compat=1,
 * APCu not loaded: Probe::apcuProvider()): APCu's API on the table's "apcu" namespace, whose settings are
 * the table's (apc.serializer is accepted there and does nothing). The runner starts such a PHP for it
 * (Run/ApcuTableParticipant).
 */
final class ApcuSubject extends InMemorySubject implements CountingSubject
{
    public const TABLE_NAME = 'APCu(table)';

    public static function serializer(): string
    {
        return (string) ini_get('apc.serializer') ?: 'default';
    }

    public static function onTable(): bool
    {
        return Probe::apcuProvider() === 'table';
    }

    public function name(): string
    {
        return self::onTable() ? self::TABLE_NAME : 'APCu(' . self::serializer() . ')';
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
        return 'APCu ' . phpversion('apcu') . (self::onTable() ? ' API on ' . Probe::tableVersion() : '');
    }

    /** APCu's serializer; on the table, the table's settings as TableSubject shows them, and how. */
    public function settings(): array
    {
        if (!self::onTable()) {
            return ['serializer' => self::serializer()];
        }

        return ['via' => 'table.apcu_compat=1'] + (new TableSubject())->settings();
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
