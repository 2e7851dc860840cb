<?php

declare(strict_types=1);

namespace Shm\Bench;

use RuntimeException;

/** A run that cannot produce honest numbers: a failed verification, a miss, a worker that died. Exit 1. */
final class BenchmarkFailure extends RuntimeException
{
}
