<?php

declare(strict_types=1);

namespace Shm\Bench\Run;

/** The timed iterations (warmup left out) of one subject on one case at one worker count. */
final readonly class Measurement
{
    /** @param list<Iteration> $iterations */
    public function __construct(
        public string $case,
        public string $subject,
        public int $workers,
        public array $iterations,
    ) {
    }
}
