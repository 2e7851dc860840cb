<?php

declare(strict_types=1);

use Shm\Bench\Benchmark;
use Shm\Bench\Dataset;
use Shm\Bench\Operation;
use Shm\Bench\Workload;

// GET cycling over the 1,000 meteorite records, each a nested array (the data set of Relay's InMemoryGet).
return new Benchmark('InMemoryGet', Dataset::meteorites(), Workload::of(Operation::Get));
