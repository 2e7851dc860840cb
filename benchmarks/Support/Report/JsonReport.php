<?php

declare(strict_types=1);

namespace Shm\Bench\Report;

use Shm\Bench\Benchmark;
use Shm\Bench\Environment;
use Shm\Bench\Run\Iteration;
use Shm\Bench\Run\Plan;

/**
 * The machine-readable report (schema 1, read back by ResultFile): environment, options, cases, and one
 * result row per case, worker count and subject with its summary and every iteration of every run.
 */
final class JsonReport
{
    public const SCHEMA = 1;

    /** @return array{name: string, data: string, workload: string} */
    public static function describeCase(Benchmark $case): array
    {
        return ['name' => $case->name, 'data' => $case->dataset->description, 'workload' => $case->workload->description];
    }

    /** @param list<array{name: string, data: string, workload: string}> $cases from describeCase() */
    public static function encode(Environment $environment, Plan $plan, int $repeat, array $cases, ResultSet $results): string
    {
        $document = [
            'schema' => self::SCHEMA,
            'generated' => gmdate('Y-m-d\TH:i:s\Z'),
            'environment' => $environment->toArray(),
            'options' => [
                'workers' => $plan->workers,
                'warmup' => $plan->warmup,
                'runs' => $plan->runs,
                'duration' => $plan->duration,
                'repeat' => $repeat,
            ],
            'cases' => $cases,
            'results' => [],
        ];
        foreach ($cases as ['name' => $case]) {
            foreach ($results->ranked($case) as $ranked) {
                $baseline = $ranked[0];
                foreach ($ranked as $result) {
                    $document['results'][] = self::row($result, $baseline);
                }
            }
        }

        return json_encode($document, JSON_PRETTY_PRINT | JSON_UNESCAPED_SLASHES | JSON_PRESERVE_ZERO_FRACTION | JSON_THROW_ON_ERROR) . "\n";
    }

    /** @return array<string, mixed> */
    private static function row(Result $result, Result $baseline): array
    {
        $factor = $result->median() / $baseline->median();

        return [
            'case' => $result->case,
            'workers' => $result->workers,
            'subject' => $result->subject,
            'median' => round($result->median(), 1),
            'mean' => round($result->mean(), 1),
            'rstdev_pct' => round($result->rstdevPercent(), 3),
            'memory' => $result->memory(),
            'network' => $result->network(),
            'baseline' => $baseline->subject,
            'factor' => round($factor, 4),
            'change_pct' => round(($factor - 1) * 100, 2),
            'runs' => array_map(static fn (array $run): array => [
                'median' => round(Result::runMedian($run), 1),
                'iterations' => array_map(static fn (Iteration $iteration): array => $iteration->toArray(), $run),
            ], $result->runs()),
        ];
    }
}
