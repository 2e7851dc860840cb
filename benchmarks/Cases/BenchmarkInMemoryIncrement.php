<?php

declare(strict_types=1);

use Shm\Bench\Benchmark;
use Shm\Bench\Dataset;
use Shm\Bench\Operation;
use Shm\Bench\Workload;

// INCREMENT of 1,000 integer counters; afterwards their sum must equal the number of increments timed.
return new Benchmark('InMemoryIncrement', Dataset::counters(1000), Workload::of(Operation::Increment));
