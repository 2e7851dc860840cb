<?php

declare(strict_types=1);

namespace Shm\Bench\Eviction;

use Shm\Bench\Probe;

/** APCu at its defaults except apc.shm_size (the budget). When full, APCu expunges its whole cache. */
final class ApcuCache implements Cache
{
    public function name(): string
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

    public function get(string $key): bool
    {
        apcu_fetch($key, $found);

        return $found;
    }

    public function set(string $key, string $value): bool
    {
        return apcu_store($key, $value);
    }

    public function count(): int
    {
        return (int) (apcu_cache_info(true)['num_entries'] ?? 0);
    }

    public function evictions(): ?int
    {
        return null;
    }

    public function held(array $keys): array
    {
        $held = [];
        foreach ($keys as $key) {
            $held[$key] = apcu_exists($key);
        }

        return $held;
    }

    /** @return array<string, int> */
    public function extra(): array
    {
        return ['expunges' => (int) (apcu_cache_info(true)['expunges'] ?? 0)];
    }
}
