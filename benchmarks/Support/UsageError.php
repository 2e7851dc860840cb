<?php

declare(strict_types=1);

namespace Shm\Bench;

use InvalidArgumentException;

/** A command line that cannot be run as written. Exit 2, with the usage. */
final class UsageError extends InvalidArgumentException
{
}
