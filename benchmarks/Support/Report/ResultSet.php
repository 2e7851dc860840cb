<?php

declare(strict_types=1);

namespace Shm\Bench\Report;

use Shm\Bench\Run\Measurement;

/** The results of a run, grouped by case and worker count, each group ranked slowest first. */
final class ResultSet
{
    /** @var array<string, array<int, array<string, Result>>> case => workers => subject => result */
    private array $results = [];

    public function add(Measurement $measurement): void
    {
        $result = $this->results[$measurement->case][$measurement->workers][$measurement->subject]
            ??= new Result($measurement->case, $measurement->workers, $measurement->subject);
        $result->addRun($measurement->iterations);
    }

    /**
     * @return array<int, list<Result>> workers => results from slowest to fastest; the first is the
     *         baseline of its group
     */
    public function ranked(string $case): array
    {
        $groups = $this->results[$case] ?? [];
        ksort($groups);

        return array_map(static function (array $results): array {
            $ranked = array_values($results);
            usort($ranked, static fn (Result $a, Result $b): int => $a->median() <=> $b->median());

            return $ranked;
        }, $groups);
    }
}
