<?php

declare(strict_types=1);

namespace Shm\Bench\Subject;

use Relay\Table;
use Shm\Bench\Dataset;

/**
 * Relay's in-memory Relay\Table (static API, default namespace). Only the relay extension counts: with
 * table.relay_alias=1, Relay\Table may be Shm\Table under another name.
 */
final class RelayTableSubject extends InMemorySubject
{
    public function name(): string
    {
        return 'RelayTable';
    }

    public function unavailableReason(): ?string
    {
        return extension_loaded('relay') ? null : 'extension relay is not loaded';
    }

    public function version(): string
    {
        return 'Relay ' . phpversion('relay');
    }

    public function settings(): array
    {
        return [];
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
        foreach ($dataset->keys as $key) {
            Table::delete($key);
        }
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
}
