<?php

declare(strict_types=1);

namespace Shm\Bench\Run;

use Shm\Bench\Worker\WorkerReport;

/** One timed iteration of one subject at one worker count, summed over its workers. */
final readonly class Iteration
{
    public function __construct(
        /** Sum over the workers of each one's ops / its own elapsed time. */
        public float $iops,
        public int $ops,
        public int $misses,
        /** The longest worker's elapsed time. */
        public float $seconds,
        /** The most PHP memory a worker's loop added at its peak, over what the worker held at the start. */
        public int $memory,
        /** Bytes exchanged with the server during the iteration; 0 in memory. */
        public int $network,
    ) {
    }

    /** @param list<WorkerReport> $reports */
    public static function fromReports(array $reports, int $network): self
    {
        $iops = 0.0;
        $ops = 0;
        $misses = 0;
        $longest = 0;
        $memory = 0;
        foreach ($reports as $report) {
            $iops += $report->ops / ($report->elapsedNs / 1e9);
            $ops += $report->ops;
            $misses += $report->misses;
            $longest = max($longest, $report->elapsedNs);
            $memory = max($memory, $report->peakMemory);
        }

        return new self($iops, $ops, $misses, $longest / 1e9, $memory, $network);
    }

    /** @param array<string, int|float> $fields */
    public static function fromArray(array $fields): self
    {
        return new self(
            (float) $fields['iops'],
            (int) $fields['ops'],
            (int) $fields['misses'],
            (float) $fields['seconds'],
            (int) $fields['memory'],
            (int) $fields['network'],
        );
    }

    /** @return array<string, int|float> */
    public function toArray(): array
    {
        return [
            'iops' => round($this->iops, 1),
            'ops' => $this->ops,
            'misses' => $this->misses,
            'seconds' => round($this->seconds, 6),
            'memory' => $this->memory,
            'network' => $this->network,
        ];
    }
}
