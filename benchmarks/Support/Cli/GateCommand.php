<?php

declare(strict_types=1);

namespace Shm\Bench\Cli;

use Shm\Bench\BenchmarkFailure;
use Shm\Bench\Format;
use Shm\Bench\Report\Metric;
use Shm\Bench\Report\Ratio;
use Shm\Bench\Report\ResultFile;
use Shm\Bench\UsageError;

/**
 * benchmarks/gate BASE.json CUR.json --threshold=PCT [--metric=CASE.SUBJECT[/REF][@WORKERS] ...]
 *
 * Gates on ratios between subjects of the same run, never on absolute IOPS, which follow the machine.
 * A tracked ratio that fell by more than PCT percent from BASE to CUR, or is missing from CUR, fails.
 * Exit 0 when none did, 1 when one did, 2 on a bad command line or file.
 */
final class GateCommand
{
    private const USAGE = <<<'TXT'
        Usage: php benchmarks/gate BASE.json CUR.json --threshold=PCT [--metric=SPEC ...]

          --threshold=PCT  fail when a tracked ratio falls by more than PCT percent
          --metric=SPEC    CASE.SUBJECT[/REFERENCE][@WORKERS], e.g. InMemoryGet.Table/APCu@4;
                           CASE may be *, REFERENCE defaults to the slowest subject of BASE.
                           Default: Table against every other in-memory subject, in every case
                           and worker count (where Table did not run: each in-memory subject
                           against the slowest one).

        TXT;

    /** @param list<string> $argv */
    public static function main(array $argv): int
    {
        try {
            [$files, $threshold, $metrics] = self::parse(array_slice($argv, 1));
            [$base, $current] = array_map(ResultFile::load(...), $files);
            $ratios = $metrics === [] ? Ratio::defaults($base) : array_merge(...array_map(static fn (string $spec): array => Metric::resolve($spec, $base), $metrics));
        } catch (UsageError | BenchmarkFailure $e) {
            fwrite(STDERR, "gate: {$e->getMessage()}\n\n" . self::USAGE);

            return 2;
        }

        printf("base:    %s\ncurrent: %s\n", $base->describe(), $current->describe());
        if ($ratios === []) {
            echo "nothing to gate: no case has two subjects\n";

            return 0;
        }
        $failed = 0;
        foreach ($ratios as $ratio) {
            $before = $ratio->in($base);
            $after = $ratio->in($current);
            $change = $after === null ? null : ($after / $before - 1) * 100;
            $ok = $change !== null && $change >= -$threshold;
            $failed += $ok ? 0 : 1;
            printf(
                "%-4s %s@%d %s: %s -> %s%s\n",
                $ok ? 'ok' : 'FAIL',
                $ratio->case,
                $ratio->workers,
                $ratio->label(),
                Format::factor($before),
                $after === null ? 'missing' : Format::factor($after),
                $change === null ? '' : ' (' . Format::percent($change, signed: true) . ')',
            );
        }
        printf("%d of %d ratios within %s\n", count($ratios) - $failed, count($ratios), Format::percent(-$threshold));

        return $failed === 0 ? 0 : 1;
    }

    /**
     * @param list<string> $arguments
     * @return array{list<string>, float, list<string>} files, threshold, metric specs
     */
    private static function parse(array $arguments): array
    {
        $files = [];
        $threshold = null;
        $metrics = [];
        while ($arguments !== []) {
            $argument = array_shift($arguments);
            [$name, $value] = str_contains($argument, '=') ? explode('=', $argument, 2) : [$argument, null];
            if ($name === '--threshold' || $name === '--metric') {
                $value ??= array_shift($arguments) ?? throw new UsageError("$name needs a value");
                if ($name === '--metric') {
                    $metrics[] = $value;
                } elseif (is_numeric($value) && (float) $value >= 0) {
                    $threshold = (float) $value;
                } else {
                    throw new UsageError("--threshold: expected a percentage, got \"$value\"");
                }
            } elseif (str_starts_with($argument, '-')) {
                throw new UsageError("unknown option $argument");
            } else {
                $files[] = $argument;
            }
        }
        if (count($files) !== 2) {
            throw new UsageError('expected two result files, BASE and CUR');
        }

        return [$files, $threshold ?? throw new UsageError('--threshold=PCT is required'), $metrics];
    }
}
