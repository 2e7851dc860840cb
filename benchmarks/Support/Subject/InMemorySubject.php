<?php

declare(strict_types=1);

namespace Shm\Bench\Subject;

use Shm\Bench\Dataset;

/** A subject living in this host's shared memory: nothing to connect, nothing to close around a fork. */
abstract class InMemorySubject implements Subject
{
    public function family(): string
    {
        return $this->name();
    }

    public function begin(Dataset $dataset): void
    {
    }

    public function attach(): void
    {
    }

    public function detach(): void
    {
    }
}
