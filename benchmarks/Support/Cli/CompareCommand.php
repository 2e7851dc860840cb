<?php

declare(strict_types=1);

namespace Shm\Bench\Cli;

use Shm\Bench\BenchmarkFailure;
use Shm\Bench\Format;
use Shm\Bench\Report\Ratio;
use Shm\Bench\Report\ResultFile;
use Shm\Bench\Report\SvgChart;
use Shm\Bench\Report\TextTable;

/**
 * benchmarks/compare A.json B.json: for every case and worker count, each subject's median IOPS in A and
 * in B, then the ratios of Ratio::defaults() (Table against the other in-memory subjects), each with its
 * change from A to B. --svg FILE also draws both runs' factors as one SVG chart.
 */
final class CompareCommand
{
    private const USAGE = "Usage: php benchmarks/compare A.json B.json [--svg FILE]\n";

    /** @param list<string> $argv */
    public static function main(array $argv): int
    {
        $files = [];
        $svg = null;
        $arguments = array_slice($argv, 1);
        while ($arguments !== []) {
            $argument = array_shift($arguments);
            if ($argument === '--svg' && $arguments !== []) {
                $svg = array_shift($arguments);
            } elseif (str_starts_with($argument, '--svg=')) {
                $svg = substr($argument, 6);
            } else {
                $files[] = $argument;
            }
        }
        if ($svg === '' || count($files) !== 2 || str_starts_with($files[0], '-') || str_starts_with($files[1], '-')) {
            fwrite(STDERR, self::USAGE);

            return 2;
        }
        try {
            [$a, $b] = array_map(ResultFile::load(...), $files);
        } catch (BenchmarkFailure $e) {
            fwrite(STDERR, "compare: {$e->getMessage()}\n");

            return 2;
        }

        printf("A: %s\nB: %s\n", $a->describe(), $b->describe());
        echo TextTable::render(['Case', 'Workers', 'Metric', 'A', 'B', 'Change'], self::rows($a, $b), [1, 3, 4, 5]);
        if ($svg !== null) {
            $chart = SvgChart::render([[basename($files[0]), $a], [basename($files[1]), $b]], 'Shm\\Table benchmarks: A against B');
            if (file_put_contents($svg, $chart) === false) {
                fwrite(STDERR, "compare: cannot write $svg\n");

                return 1;
            }
        }

        return 0;
    }

    /** @return list<list<string>|null> */
    private static function rows(ResultFile $a, ResultFile $b): array
    {
        $ratios = [];
        foreach (Ratio::defaults($a) as $ratio) {
            $ratios[$ratio->case][$ratio->workers][] = $ratio;
        }
        $rows = [];
        foreach (self::union($a->groups(), $b->groups()) as $case => $byWorkers) {
            foreach ($byWorkers as $workers => $subjects) {
                if ($rows !== []) {
                    $rows[] = null;
                }
                foreach ($subjects as $subject) {
                    $rows[] = self::row($case, $workers, "$subject IOPS", $a->median($case, $workers, $subject), $b->median($case, $workers, $subject), Format::count(...));
                }
                foreach ($ratios[$case][$workers] ?? [] as $ratio) {
                    $rows[] = self::row($case, $workers, $ratio->label(), $ratio->in($a), $ratio->in($b), Format::factor(...));
                }
            }
        }

        return $rows;
    }

    /** @param callable(float): string $format */
    private static function row(string $case, int $workers, string $metric, ?float $a, ?float $b, callable $format): array
    {
        $change = $a === null || $b === null || !$a ? '' : Format::percent(($b / $a - 1) * 100, signed: true);

        return [$case, (string) $workers, $metric, $a === null ? '-' : $format($a), $b === null ? '-' : $format($b), $change];
    }

    /**
     * A's groups, with what only B has added after them.
     *
     * @param array<string, array<int, list<string>>> $a
     * @param array<string, array<int, list<string>>> $b
     * @return array<string, array<int, list<string>>>
     */
    private static function union(array $a, array $b): array
    {
        foreach ($b as $case => $byWorkers) {
            foreach ($byWorkers as $workers => $subjects) {
                $a[$case][$workers] = array_values(array_unique([...$a[$case][$workers] ?? [], ...$subjects]));
            }
        }

        return $a;
    }
}
