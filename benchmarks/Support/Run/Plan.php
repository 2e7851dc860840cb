<?php

declare(strict_types=1);

namespace Shm\Bench\Run;

/** How each subject is measured: the worker counts swept, and the iterations run at each. */
final readonly class Plan
{
    /** @param list<int> $workers */
    public function __construct(
        public array $workers,
        public int $warmup,
        public int $runs,
        public float $duration,
    ) {
    }
}
