<?php

declare(strict_types=1);

namespace Shm\Bench\Cli;

use Shm\Bench\BenchmarkFailure;
use Shm\Bench\Environment;
use Shm\Bench\Log;
use Shm\Bench\Report\JsonReport;
use Shm\Bench\Report\Progress;
use Shm\Bench\Report\ResultFile;
use Shm\Bench\Report\ResultSet;
use Shm\Bench\Report\SvgChart;
use Shm\Bench\Report\TextReport;
use Shm\Bench\Run\Lineup;
use Shm\Bench\Run\Plan;
use Shm\Bench\Run\Suite;
use Shm\Bench\Run\SubjectFilter;
use Shm\Bench\Subject\ApcuSubject;
use Shm\Bench\Subject\TableSubject;
use Shm\Bench\UsageError;

/** benchmarks/run: exit 0 on success, 1 when the run fails, 2 on a bad command line. */
final class RunCommand
{
    private const USAGE = <<<'TXT'
        Usage: php benchmarks/run [options] [case ...]

        Cases are file names (BenchmarkInMemoryGet.php) or bare names (InMemoryGet); none runs all.

        Options:
          --workers N[,N...]       worker processes; a list sweeps them (default 1)
          --warmup N               iterations run first and discarded (default 1)
          --runs N                 timed iterations (default 5)
          --duration S             seconds per iteration, may be fractional (default 1)
          --filter LIST|REGEX      subjects: a comma list of names or families (Table,APCu), or a
                                   regular expression (/^APCu/, or any text with regex characters)
          --apcu-serializers LIST  run APCu once per apc.serializer, the others in a second PHP
                                   (default: this PHP's apc.serializer, then "default")
          --table-segment          also run Table(segment): Table on a named segment (table.segment, in
                                   a fresh directory, removed afterwards) in a second PHP with this
                                   PHP's options, beside Table on the anonymous one
          --json                   write the JSON report to stdout (or to --out) instead of the table
          --out FILE               write the JSON report to FILE; the table still goes to stdout
          --svg FILE               also draw the results as an SVG chart (Factor per subject and workers)
          --repeat N               repeat every case N times and report medians over the runs
          -v, --verbose            progress of every iteration on stderr (without -v, a terminal
                                   gets one progress line, with the time left)
          -h, --help               this text

        Subjects: Table, Table(segment) (with --table-segment), APCu(<serializer>), APCu(table), Yac,
        SwooleTable, RelayTable, Redis (127.0.0.1:6379).
        APCu needs php -d apc.enable_cli=1; Table needs php -d extension=modules/table.so.
        APCu(table) is APCu's benchmark code on table.apcu_compat=1: a second PHP started with -n, the
        table.so this PHP loaded and no APCu (where this PHP's apcu_*() are the table's, it runs here).

        TXT;

    /** @param list<string> $argv */
    public static function main(array $argv): int
    {
        $benchmarks = dirname(__DIR__, 2);
        try {
            $options = Options::parse(array_slice($argv, 1));
            if ($options->help) {
                echo self::USAGE;

                return 0;
            }
            $log = new Log($options->verbose, $options->verbose ? null : Progress::forTerminal($options->duration));
            $loader = new CaseLoader("$benchmarks/Cases");
            $caseNames = $loader->resolve($options->cases);
            $apcuSerializers = $options->apcuSerializers ?? array_values(array_unique([ApcuSubject::serializer(), 'default']));
            $participants = Lineup::all($apcuSerializers, $options->tableSegment, "$benchmarks/run", $log);
            $filter = $options->filter === null ? SubjectFilter::everything() : SubjectFilter::parse($options->filter, Lineup::names($participants));
        } catch (UsageError $e) {
            fwrite(STDERR, "run: {$e->getMessage()}\n\n" . self::USAGE);

            return 2;
        }

        try {
            $selected = Lineup::select($participants, $filter, $log, $options->tableSegment ? [TableSubject::SEGMENT_NAME] : []);
            $plan = new Plan($options->workers, $options->warmup, $options->runs, $options->duration);
            $environment = Environment::detect($selected, dirname($benchmarks));
            $jsonToStdout = $options->json && $options->out === null;
            $text = $jsonToStdout ? null : new TextReport(STDOUT);
            $text?->header($environment);

            $suite = new Suite($selected, $plan, $options->repeat, $log);
            $results = new ResultSet();
            $cases = [];
            $loaded = array_map($loader->load(...), $caseNames);
            $log->meter?->plan(array_sum(array_map($suite->iterations(...), $loaded)));
            foreach ($loaded as $case) {
                $text?->caseStarts($case, $plan, $options->repeat);
                $suite->run($case, $results);
                $log->meter?->clear();
                $text?->caseResults($case->name, $results);
                $cases[] = JsonReport::describeCase($case);
            }

            $json = JsonReport::encode($environment, $plan, $options->repeat, $cases, $results);
            if ($jsonToStdout) {
                echo $json;
            } elseif ($options->out !== null && file_put_contents($options->out, $json) === false) {
                throw new BenchmarkFailure("cannot write {$options->out}");
            }
            if ($options->svg !== null) {
                $title = count($cases) === 1 ? "Shm\\Table benchmarks: {$cases[0]['name']}" : 'Shm\\Table benchmarks';
                $svg = SvgChart::render([['this run', ResultFile::fromJson($json, 'this run')]], $title);
                if (file_put_contents($options->svg, $svg) === false) {
                    throw new BenchmarkFailure("cannot write {$options->svg}");
                }
            }

            return 0;
        } catch (BenchmarkFailure $e) {
            $log->meter?->clear();
            fwrite(STDERR, "run: FAILED: {$e->getMessage()}\n");

            return 1;
        } catch (\Throwable $e) {
            fwrite(STDERR, sprintf("run: FAILED: %s: %s at %s:%d\n", $e::class, $e->getMessage(), $e->getFile(), $e->getLine()));

            return 1;
        }
    }
}
