<?php

declare(strict_types=1);

use Shm\Bench\Benchmark;
use Shm\Bench\Dataset;
use Shm\Bench\Workload;

// 90% GET and 10% SET on the meteorite records, interleaved 9:1.
return new Benchmark('InMemoryMixed', Dataset::meteorites(), Workload::mixed(readPercent: 90));
