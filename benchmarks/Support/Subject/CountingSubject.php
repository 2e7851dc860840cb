<?php

declare(strict_types=1);

namespace Shm\Bench\Subject;

/** A subject with an atomic integer increment; the others skip increment workloads. */
interface CountingSubject extends Subject
{
    /** @param list<string> $keys */
    public function incrementBatch(array $keys, int $from, int $count): int;
}
