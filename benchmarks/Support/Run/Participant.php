<?php

declare(strict_types=1);

namespace Shm\Bench\Run;

use Shm\Bench\Benchmark;

/** One row source of the report: a subject measured in this process, or in a PHP started for it. */
interface Participant
{
    public function name(): string;

    public function family(): string;

    public function unavailableReason(): ?string;

    public function version(): string;

    /** @return array<string, string> */
    public function settings(): array;

    /** Why this participant sits out $case (an operation it lacks), or null. */
    public function unsupportedReason(Benchmark $case): ?string;

    /** @return list<Measurement> one per worker count of $plan, in its order */
    public function measure(Benchmark $case, Plan $plan): array;
}
