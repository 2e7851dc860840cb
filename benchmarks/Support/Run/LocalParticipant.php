<?php

declare(strict_types=1);

namespace Shm\Bench\Run;

use Shm\Bench\Benchmark;
use Shm\Bench\BenchmarkFailure;
use Shm\Bench\Format;
use Shm\Bench\Log;
use Shm\Bench\Operation;
use Shm\Bench\Subject\CountingSubject;
use Shm\Bench\Subject\NetworkedSubject;
use Shm\Bench\Subject\Subject;
use Shm\Bench\Worker\WorkerGroup;

/**
 * Measures a subject in this process: seed and verify, then for each worker count fork the workers for
 * every iteration (warmup first), fail on any miss, and verify the data again after each iteration.
 */
final readonly class LocalParticipant implements Participant
{
    public function __construct(private Subject $subject, private Log $log)
    {
    }

    public function name(): string
    {
        return $this->subject->name();
    }

    public function family(): string
    {
        return $this->subject->family();
    }

    public function unavailableReason(): ?string
    {
        return $this->subject->unavailableReason();
    }

    public function version(): string
    {
        return $this->subject->version();
    }

    public function settings(): array
    {
        return $this->subject->settings();
    }

    public function unsupportedReason(Benchmark $case): ?string
    {
        if ($case->workload->uses(Operation::Increment) && !$this->subject instanceof CountingSubject) {
            return "{$this->name()} has no atomic increment";
        }

        return null;
    }

    public function measure(Benchmark $case, Plan $plan): array
    {
        $verifier = new Verifier($this->subject, $case);
        $this->subject->begin($case->dataset);
        try {
            $verifier->seed();
            $opsSoFar = 0;
            $measurements = [];
            foreach ($plan->workers as $workers) {
                $timed = [];
                for ($i = 1; $i <= $plan->warmup + $plan->runs; $i++) {
                    $this->log->meter?->iteration($case->name, $this->name(), $workers, $i, $plan->warmup + $plan->runs);
                    $iteration = $this->iterate($case, $workers, $plan->duration);
                    $this->log->meter?->advance();
                    $opsSoFar += $iteration->ops;
                    $where = sprintf('in iteration %d with %d worker(s)', $i, $workers);
                    if ($iteration->misses > 0) {
                        throw new BenchmarkFailure(sprintf(
                            '%s / %s: %s of %s operations missed or failed %s',
                            $this->name(),
                            $case->name,
                            number_format($iteration->misses),
                            number_format($iteration->ops),
                            $where,
                        ));
                    }
                    $verifier->verifyAfter($opsSoFar, "after the operations $where");
                    $warmup = $i <= $plan->warmup;
                    $this->log->progress(sprintf(
                        '  %s %s workers=%d %s %d: %s IOPS',
                        $case->name,
                        $this->name(),
                        $workers,
                        $warmup ? 'warmup' : 'iteration',
                        $warmup ? $i : $i - $plan->warmup,
                        Format::count($iteration->iops),
                    ));
                    if (!$warmup) {
                        $timed[] = $iteration;
                    }
                }
                $measurements[] = new Measurement($case->name, $this->name(), $workers, $timed);
            }

            return $measurements;
        } finally {
            $this->subject->end($case->dataset);
        }
    }

    private function iterate(Benchmark $case, int $workers, float $duration): Iteration
    {
        $this->subject->detach();
        $group = WorkerGroup::fork($workers, new OperationLoop($this->subject, $case, $workers, $duration));
        try {
            $before = $this->trafficBytes();
            $reports = $group->run($duration);
            $network = $this->trafficBytes() - $before;
        } finally {
            $group->killRemaining();
        }

        return Iteration::fromReports($reports, $network);
    }

    private function trafficBytes(): int
    {
        return $this->subject instanceof NetworkedSubject ? $this->subject->trafficBytes() : 0;
    }
}
