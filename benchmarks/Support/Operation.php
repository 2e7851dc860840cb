<?php

declare(strict_types=1);

namespace Shm\Bench;

/** The primitive operations a workload is made of. */
enum Operation: string
{
    case Get = 'get';
    case Set = 'set';
    case Increment = 'increment';
}
