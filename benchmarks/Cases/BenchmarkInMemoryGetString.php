<?php

declare(strict_types=1);

use Shm\Bench\Benchmark;
use Shm\Bench\Dataset;
use Shm\Bench\Operation;
use Shm\Bench\Workload;

// GET of short strings: the per-call overhead, with next to no value to copy.
return new Benchmark('InMemoryGetString', Dataset::strings(1000, 16, 64), Workload::of(Operation::Get));
