<?php

declare(strict_types=1);

namespace Shm\Bench;

/** One benchmark case: the data every subject is seeded with and what the workers do with it. */
final readonly class Benchmark
{
    public function __construct(
        public string $name,
        public Dataset $dataset,
        public Workload $workload,
    ) {
    }
}
