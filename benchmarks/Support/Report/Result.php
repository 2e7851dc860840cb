<?php

declare(strict_types=1);

namespace Shm\Bench\Report;

use Shm\Bench\Run\Iteration;

/**
 * All timed iterations of one subject on one case at one worker count, grouped by run (--repeat).
 * The headline figure is the median over runs of each run's median IOPS.
 */
final class Result
{
    /** @var list<list<Iteration>> */
    private array $runs = [];

    public function __construct(public readonly string $case, public readonly int $workers, public readonly string $subject)
    {
    }

    /** @param list<Iteration> $iterations */
    public function addRun(array $iterations): void
    {
        $this->runs[] = $iterations;
    }

    /** @return list<list<Iteration>> */
    public function runs(): array
    {
        return $this->runs;
    }

    public function median(): float
    {
        return Statistics::median(array_map(static fn (array $run): float => self::runMedian($run), $this->runs));
    }

    public function mean(): float
    {
        return Statistics::mean($this->iops());
    }

    public function rstdevPercent(): float
    {
        return Statistics::rstdevPercent($this->iops());
    }

    /** The most memory a worker loop added, in any iteration (see Iteration::$memory). */
    public function memory(): int
    {
        return max(array_map(static fn (Iteration $iteration): int => $iteration->memory, $this->iterations()));
    }

    /** Median bytes exchanged with a server per iteration. */
    public function network(): int
    {
        return (int) Statistics::median(array_map(static fn (Iteration $iteration): float => (float) $iteration->network, $this->iterations()));
    }

    /** @param list<Iteration> $run */
    public static function runMedian(array $run): float
    {
        return Statistics::median(array_map(static fn (Iteration $iteration): float => $iteration->iops, $run));
    }

    /** @return list<float> */
    private function iops(): array
    {
        return array_map(static fn (Iteration $iteration): float => $iteration->iops, $this->iterations());
    }

    /** @return list<Iteration> */
    private function iterations(): array
    {
        return array_merge(...$this->runs);
    }
}
