<?php

declare(strict_types=1);

namespace Shm\Bench\Subject;

use Shm\Bench\Dataset;
use Shm\Bench\Probe;
use Shm\Table;

/** This project's Shm\Table, default namespace. A miss is a null from get(); no case stores null. */
final class TableSubject extends InMemorySubject implements CountingSubject
{
    public function name(): string
    {
        return 'Table';
    }

    public function unavailableReason(): ?string
    {
        return Probe::table('php -d extension=modules/table.so');
    }

    public function version(): string
    {
        return Probe::tableVersion();
    }

    public function settings(): array
    {
        $settings = [
            'serializer' => ini_get('table.serializer'),
            'memory' => ini_get('table.memory'),
            'eviction' => ini_get('table.eviction_policy'),
        ];

        return array_filter($settings, 'is_string');
    }

    public function store(string $key, mixed $value): bool
    {
        return Table::set($key, $value);
    }

    public function read(string $key): array
    {
        $value = Table::get($key);

        return [$value !== null, $value];
    }

    public function end(Dataset $dataset): void
    {
        Table::deleteMany($dataset->keys);
    }

    public function getBatch(array $keys, int $from, int $count): int
    {
        $size = count($keys);
        $misses = 0;
        for ($i = $from, $end = $from + $count; $i < $end; $i++) {
            if (Table::get($keys[$i % $size]) === null) {
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
            if (!Table::set($keys[$i % $size], $values[$i % $size])) {
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
            if (Table::increment($keys[$i % $size]) === false) {
                $failures++;
            }
        }

        return $failures;
    }
}
