<?php

declare(strict_types=1);

namespace Shm\Bench\Run;

use Shm\Bench\Benchmark;
use Shm\Bench\BenchmarkFailure;
use Shm\Bench\Log;
use Shm\Bench\Report\ResultFile;

/**
 * This runner in a second PHP, for a subject variant that needs PHP_INI_SYSTEM settings this process does
 * not have: the same binary and PHP options (PhpCommandLine) with some settings given instead, running one
 * case for one subject with --json. Its stderr is this process's, so its warnings and failures show as they
 * happen; the terminal's one progress line stays this process's.
 */
final readonly class SecondPhp
{
    public function __construct(private string $runner, private Log $log)
    {
    }

    public static function unavailableReason(): ?string
    {
        return PhpCommandLine::current() === null ? 'cannot read the PHP command line from /proc/self/cmdline to start a second PHP' : null;
    }

    /**
     * Runs $case with the plan's workers and iterations for $subject (its --filter) and returns the report.
     *
     * @param array<string, string> $ini     settings given with -d, in place of any of this PHP's own
     * @param list<string>          $options runner options besides the plan's, --filter and --json
     * @param string                $what    how the run differs, for messages: "apc.serializer=default"
     * @param PhpCommandLine|null   $php     the PHP options to start from; null: this PHP's own
     */
    public function run(string $subject, array $ini, array $options, Benchmark $case, Plan $plan, string $what, ?PhpCommandLine $php = null): ResultFile
    {
        $php ??= PhpCommandLine::current() ?? throw new BenchmarkFailure("$subject: the PHP command line is no longer readable");
        foreach ($ini as $name => $value) {
            $php = $php->withIni($name, $value);
        }
        $arguments = [
            '--json',
            '--filter', $subject,
            ...$options,
            '--workers', implode(',', $plan->workers),
            '--warmup', (string) $plan->warmup,
            '--runs', (string) $plan->runs,
            '--duration', (string) $plan->duration,
            ...($this->log->verbose ? ['-v'] : []),
            $case->name,
        ];
        $command = $php->command($this->runner, $arguments);
        $this->log->progress('  ' . implode(' ', array_map('escapeshellarg', $command)));

        $iterations = count($plan->workers) * ($plan->warmup + $plan->runs);
        $this->log->meter?->block(sprintf('%s, %s, in a second PHP (%d iterations)', $case->name, $subject, $iterations));
        // The second PHP shares this terminal: only this process draws the progress line.
        $process = proc_open($command, [0 => ['file', '/dev/null', 'r'], 1 => ['pipe', 'w']], $pipes, null, ['BENCH_NO_PROGRESS' => '1'] + getenv());
        if (!is_resource($process)) {
            throw new BenchmarkFailure("$subject: could not start " . PHP_BINARY);
        }
        $json = (string) stream_get_contents($pipes[1]);
        fclose($pipes[1]);
        $status = proc_close($process);
        $this->log->meter?->advance($iterations);
        if ($status !== 0) {
            throw new BenchmarkFailure(sprintf('%s / %s: the PHP run with %s failed (exit status %d)', $subject, $case->name, $what, $status));
        }

        return ResultFile::fromJson($json, "the output of the $subject run");
    }
}
