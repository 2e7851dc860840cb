<?php

declare(strict_types=1);

namespace Shm\Bench\Worker;

/** What one worker did in one iteration; crosses the result pipe as one JSON line. */
final readonly class WorkerReport
{
    public function __construct(
        public int $ops,
        public int $misses,
        public int $elapsedNs,
        public int $peakMemory,
    ) {
    }

    /** @param array<string, mixed> $fields */
    public static function fromArray(array $fields): self
    {
        return new self((int) $fields['ops'], (int) $fields['misses'], (int) $fields['elapsed_ns'], (int) $fields['peak_memory']);
    }

    /** @return array<string, int> */
    public function toArray(): array
    {
        return ['ops' => $this->ops, 'misses' => $this->misses, 'elapsed_ns' => $this->elapsedNs, 'peak_memory' => $this->peakMemory];
    }
}
