<?php

declare(strict_types=1);

namespace Shm\Bench\Subject;

use Shm\Bench\Dataset;

/**
 * A key/value store under test, driven through its own API.
 *
 * Life cycle, per case: begin() and store() in the runner; then per iteration detach() before the fork,
 * attach() in each worker, the *Batch() loops, detach() in the worker; finally read() checks and end().
 *
 * The batch methods are the hot path: each runs $count operations over $keys starting at index $from
 * (wrapping around) and returns how many failed: a GET miss, a SET or INCREMENT that reported failure.
 */
interface Subject
{
    /** Unique in a run, shown in the Client column: "Table", "APCu(php)". */
    public function name(): string;

    /** What a --filter name matches besides name(): "APCu" matches every APCu variant. */
    public function family(): string;

    /** Why this subject cannot run in this process, or null when it can. */
    public function unavailableReason(): ?string;

    /** Product and version for the report header: "APCu 5.1.22". */
    public function version(): string;

    /** @return array<string, string> settings that change the results, e.g. ['serializer' => 'php'] */
    public function settings(): array;

    /** Prepares for a case's data (connects, sizes a fixed table); in the runner, before seeding. */
    public function begin(Dataset $dataset): void;

    /** Opens what a worker needs after the fork (a connection of its own). */
    public function attach(): void;

    /** Closes what must not be shared across a fork. */
    public function detach(): void;

    /** Stores one value while seeding; false when the store refused it. */
    public function store(string $key, mixed $value): bool;

    /** @return array{bool, mixed} [found, value]: reads one key back for verification */
    public function read(string $key): array;

    /** Removes the case's keys and releases what begin() took. */
    public function end(Dataset $dataset): void;

    /** @param list<string> $keys */
    public function getBatch(array $keys, int $from, int $count): int;

    /**
     * @param list<string> $keys
     * @param list<mixed>  $values
     */
    public function setBatch(array $keys, array $values, int $from, int $count): int;
}
