<?php

declare(strict_types=1);

namespace Shm\Bench\Run;

use Shm\Bench\Benchmark;
use Shm\Bench\Log;
use Shm\Bench\Report\ResultSet;

/**
 * Runs a case with every participant. With $repeat > 1 the whole round over all participants is
 * repeated, so slow drift of the machine spreads over all of them instead of hitting one.
 */
final readonly class Suite
{
    /** @param list<Participant> $participants */
    public function __construct(private array $participants, private Plan $plan, private int $repeat, private Log $log)
    {
    }

    /** Iterations (warmup included) that run() will time on $case, for the progress meter. */
    public function iterations(Benchmark $case): int
    {
        $running = count(array_filter($this->participants, static fn (Participant $p): bool => $p->unsupportedReason($case) === null));

        return $running * $this->repeat * count($this->plan->workers) * ($this->plan->warmup + $this->plan->runs);
    }

    public function run(Benchmark $case, ResultSet $results): void
    {
        $running = [];
        foreach ($this->participants as $participant) {
            $reason = $participant->unsupportedReason($case);
            if ($reason === null) {
                $running[] = $participant;
            } else {
                $this->log->warn("skipping {$participant->name()} on {$case->name}: $reason");
            }
        }
        for ($run = 1; $run <= $this->repeat; $run++) {
            $this->log->progress(sprintf('%s: run %d of %d', $case->name, $run, $this->repeat));
            foreach ($running as $participant) {
                foreach ($participant->measure($case, $this->plan) as $measurement) {
                    $results->add($measurement);
                }
            }
        }
    }
}
