<?php

declare(strict_types=1);

namespace Shm\Bench;

/** Warnings and -v progress, both on stderr so that stdout holds only the report. */
final readonly class Log
{
    public function __construct(public bool $verbose)
    {
    }

    public function warn(string $message): void
    {
        fwrite(STDERR, "warning: $message\n");
    }

    public function progress(string $message): void
    {
        if ($this->verbose) {
            fwrite(STDERR, "$message\n");
        }
    }
}
