<?php

declare(strict_types=1);

use Shm\Bench\Benchmark;
use Shm\Bench\Dataset;
use Shm\Bench\Operation;
use Shm\Bench\Workload;

// SET cycling over the 1,000 meteorite records: each write replaces a record with an equal one.
return new Benchmark('InMemorySet', Dataset::meteorites(), Workload::of(Operation::Set));
