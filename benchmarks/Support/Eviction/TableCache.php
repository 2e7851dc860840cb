<?php

declare(strict_types=1);

namespace Shm\Bench\Eviction;

use Shm\Bench\Probe;
use Shm\Table;

/** Shm\Table, its budget being table.memory (the whole segment) and its policy table.eviction_policy. */
final class TableCache implements Cache
{
    public function name(): string
    {
        $compression = ini_get('table.compression');

        return 'Table(' . ini_get('table.eviction_policy') . ($compression !== '' && $compression !== 'none' ? ", $compression" : '') . ')';
    }

    public function unavailableReason(): ?string
    {
        return Probe::table();
    }

    public function version(): string
    {
        return Probe::tableVersion();
    }

    public function get(string $key): bool
    {
        return Table::get($key) !== null;
    }

    public function set(string $key, string $value): bool
    {
        return Table::set($key, $value);
    }

    public function count(): int
    {
        return (int) Table::count();
    }

    public function evictions(): ?int
    {
        return Table::stats()['evictions'];
    }

    public function held(array $keys): array
    {
        $held = [];
        foreach ($keys as $key) {
            $held[$key] = Table::exists($key);
        }

        return $held;
    }

    /** @return array<string, int> */
    public function extra(): array
    {
        $s = Table::stats();

        return ['evicted_bytes' => $s['evicted_bytes'], 'eviction_runs' => $s['eviction_runs'],
                'eviction_moves' => $s['eviction_moves'] ?? 0, 'oom' => $s['oom']];
    }
}
