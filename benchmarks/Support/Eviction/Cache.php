<?php

declare(strict_types=1);

namespace Shm\Bench\Eviction;

/**
 * A cache under the eviction benchmark: get, and set on a miss, with a memory budget given to it by
 * the process or server that hosts it. Values are plain strings, stored without compression.
 */
interface Cache
{
    public function name(): string;

    /** Why it cannot run here, or null. */
    public function unavailableReason(): ?string;

    public function version(): string;

    /** Whether $key is there (the value is fetched, as an application would). */
    public function get(string $key): bool;

    public function set(string $key, string $value): bool;

    /** Entries held right now. */
    public function count(): int;

    /** Entries the cache itself reports having evicted, or null when it keeps no such count. */
    public function evictions(): ?int;

    /**
     * Which of $keys are held, without touching their recency where the API allows.
     *
     * @param list<string> $keys
     * @return array<string, bool>
     */
    public function held(array $keys): array;
}
