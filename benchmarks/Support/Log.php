<?php

declare(strict_types=1);

namespace Shm\Bench;

use Shm\Bench\Report\Progress;

/**
 * Warnings and -v progress, both on stderr so that stdout holds only the report; and, on a terminal
 * without -v, the one-line progress meter ($meter, see Report\Progress).
 */
final readonly class Log
{
    public function __construct(public bool $verbose, public ?Progress $meter = null)
    {
    }

    public function warn(string $message): void
    {
        $this->meter?->clear();
        fwrite(STDERR, "warning: $message\n");
    }

    public function progress(string $message): void
    {
        if ($this->verbose) {
            fwrite(STDERR, "$message\n");
        }
    }
}
