<?php

declare(strict_types=1);

namespace Shm\Bench;

use InvalidArgumentException;

/**
 * What a worker does, as a "round" of operation batches repeated until time is up. A worker reads the
 * clock only between rounds, after about OPS_PER_CLOCK_CHECK operations, so hrtime() stays off the hot path.
 */
final readonly class Workload
{
    private const OPS_PER_CLOCK_CHECK = 64;

    /** @param list<array{Operation, int}> $round operation batches, run in this order */
    private function __construct(public string $description, public array $round)
    {
    }

    public static function of(Operation $operation): self
    {
        return new self("{$operation->value} only", [[$operation, self::OPS_PER_CLOCK_CHECK]]);
    }

    /** Reads and writes interleaved in the smallest round that has the exact ratio, e.g. 9 gets + 1 set. */
    public static function mixed(int $readPercent): self
    {
        if ($readPercent < 1 || $readPercent > 99) {
            throw new InvalidArgumentException("read percentage must be 1..99, got $readPercent");
        }
        $writePercent = 100 - $readPercent;
        $divisor = self::gcd($readPercent, $writePercent);

        return new self(
            "$readPercent% get, $writePercent% set",
            [[Operation::Get, intdiv($readPercent, $divisor)], [Operation::Set, intdiv($writePercent, $divisor)]],
        );
    }

    public function uses(Operation $operation): bool
    {
        return $this->share($operation, $this->roundSize()) > 0;
    }

    /** Whole rounds between two clock checks: at least OPS_PER_CLOCK_CHECK operations. */
    public function roundsPerClockCheck(): int
    {
        return (int) ceil(self::OPS_PER_CLOCK_CHECK / $this->roundSize());
    }

    /** How many of $ops operations (a whole number of rounds) were $operation. */
    public function share(Operation $operation, int $ops): int
    {
        $perRound = 0;
        foreach ($this->round as [$used, $count]) {
            if ($used === $operation) {
                $perRound += $count;
            }
        }

        return intdiv($ops, $this->roundSize()) * $perRound;
    }

    public function roundSize(): int
    {
        return array_sum(array_column($this->round, 1));
    }

    private static function gcd(int $a, int $b): int
    {
        return $b === 0 ? $a : self::gcd($b, $a % $b);
    }
}
