<?php

declare(strict_types=1);

namespace Shm\Bench\Run;

use Shm\Bench\Benchmark;
use Shm\Bench\Operation;
use Shm\Bench\Subject\Subject;
use Shm\Bench\Worker\WorkerReport;
use Shm\Bench\Worker\WorkerTask;

/**
 * A worker's timed loop: the case's workload rounds over the case's keys for $duration seconds, the
 * clock read only every roundsPerClockCheck() rounds. Workers start at evenly spread keys.
 */
final readonly class OperationLoop implements WorkerTask
{
    public function __construct(
        private Subject $subject,
        private Benchmark $case,
        private int $workers,
        private float $duration,
    ) {
    }

    public function prepare(): void
    {
        $this->subject->attach();
    }

    public function run(int $worker): WorkerReport
    {
        $subject = $this->subject;
        $keys = $this->case->dataset->keys;
        $values = $this->case->dataset->values;
        $size = count($keys);
        $workload = $this->case->workload;
        $round = $workload->round;
        $rounds = $workload->roundsPerClockCheck();
        $opsPerCheck = $rounds * $workload->roundSize();
        $cursor = intdiv($size * $worker, $this->workers);
        $ops = 0;
        $misses = 0;

        // Only what the loop adds is the subject's: the runner's code and the case's data are the same
        // for every subject, but not in every process (an APCu variant runs in a second PHP).
        $memoryAtStart = memory_get_usage();
        memory_reset_peak_usage();
        $start = hrtime(true);
        $deadline = $start + (int) ($this->duration * 1e9);
        do {
            for ($i = 0; $i < $rounds; $i++) {
                foreach ($round as [$operation, $count]) {
                    $misses += match ($operation) {
                        Operation::Get => $subject->getBatch($keys, $cursor, $count),
                        Operation::Set => $subject->setBatch($keys, $values, $cursor, $count),
                        Operation::Increment => $subject->incrementBatch($keys, $cursor, $count),
                    };
                    $cursor = ($cursor + $count) % $size;
                }
            }
            $ops += $opsPerCheck;
            $now = hrtime(true);
        } while ($now < $deadline);
        $peakMemory = memory_get_peak_usage() - $memoryAtStart;
        $subject->detach();

        return new WorkerReport($ops, $misses, $now - $start, $peakMemory);
    }
}
