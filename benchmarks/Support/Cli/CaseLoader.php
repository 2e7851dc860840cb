<?php

declare(strict_types=1);

namespace Shm\Bench\Cli;

use LogicException;
use Shm\Bench\Benchmark;
use Shm\Bench\UsageError;

/** Finds the case files Cases/Benchmark<Name>.php; each returns its Benchmark. */
final readonly class CaseLoader
{
    public function __construct(private string $directory)
    {
    }

    /**
     * @param list<string> $arguments file names (BenchmarkInMemoryGet.php, with or without a path) or
     *                                bare names (InMemoryGet); none means every case
     * @return list<string> case names
     */
    public function resolve(array $arguments): array
    {
        return $arguments === [] ? $this->names() : array_values(array_unique(array_map($this->resolveOne(...), $arguments)));
    }

    /** Loads one case, data set included; the runner holds one at a time, so workers' memory compares. */
    public function load(string $name): Benchmark
    {
        $file = "{$this->directory}/Benchmark$name.php";
        $case = (static fn (): mixed => require $file)();
        if (!$case instanceof Benchmark || $case->name !== $name) {
            throw new LogicException("$file must return a Benchmark named \"$name\"");
        }

        return $case;
    }

    /** @return list<string> */
    private function names(): array
    {
        $names = array_map(
            static fn (string $file): string => substr(basename($file, '.php'), strlen('Benchmark')),
            glob("{$this->directory}/Benchmark*.php") ?: [],
        );
        sort($names);

        return $names;
    }

    private function resolveOne(string $argument): string
    {
        $name = preg_replace('/^Benchmark/', '', basename($argument, '.php'));
        foreach ($this->names() as $known) {
            if (strcasecmp($known, $name) === 0) {
                return $known;
            }
        }

        throw new UsageError("unknown case \"$argument\"; known: " . implode(', ', $this->names()));
    }
}
