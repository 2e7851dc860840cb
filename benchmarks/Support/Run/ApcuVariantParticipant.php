<?php

declare(strict_types=1);

namespace Shm\Bench\Run;

use Shm\Bench\Benchmark;
use Shm\Bench\BenchmarkFailure;
use Shm\Bench\Log;
use Shm\Bench\Report\ResultFile;
use Shm\Bench\Subject\ApcuSubject;

/**
 * APCu with another apc.serializer than this process has. The setting is PHP_INI_SYSTEM, so each case
 * runs in a second PHP, started with this process's own options plus -d apc.serializer=..., running this
 * runner with --json for that one subject; its rows join this run's report.
 */
final readonly class ApcuVariantParticipant implements Participant
{
    public function __construct(private string $serializer, private string $runner, private Log $log)
    {
    }

    public function name(): string
    {
        return "APCu({$this->serializer})";
    }

    public function family(): string
    {
        return 'APCu';
    }

    public function unavailableReason(): ?string
    {
        return (new ApcuSubject())->unavailableReason()
            ?? (PhpCommandLine::current() === null ? 'cannot read the PHP command line from /proc/self/cmdline to start a second PHP' : null);
    }

    public function version(): string
    {
        return (new ApcuSubject())->version();
    }

    public function settings(): array
    {
        return ['serializer' => $this->serializer];
    }

    public function unsupportedReason(Benchmark $case): ?string
    {
        return null;
    }

    public function measure(Benchmark $case, Plan $plan): array
    {
        $arguments = [
            '--json',
            '--filter', $this->name(),
            '--apcu-serializers', $this->serializer,
            '--workers', implode(',', $plan->workers),
            '--warmup', (string) $plan->warmup,
            '--runs', (string) $plan->runs,
            '--duration', (string) $plan->duration,
            ...($this->log->verbose ? ['-v'] : []),
            $case->name,
        ];
        $command = PhpCommandLine::current()?->withIni('apc.serializer', $this->serializer)->command($this->runner, $arguments)
            ?? throw new BenchmarkFailure("{$this->name()}: the PHP command line is no longer readable");
        $this->log->progress('  ' . implode(' ', array_map('escapeshellarg', $command)));

        $iterations = count($plan->workers) * ($plan->warmup + $plan->runs);
        $this->log->meter?->block(sprintf('%s, %s, in a second PHP (%d iterations)', $case->name, $this->name(), $iterations));
        // The second PHP shares this terminal: only this process draws the progress line.
        $process = proc_open($command, [0 => ['file', '/dev/null', 'r'], 1 => ['pipe', 'w']], $pipes, null, ['BENCH_NO_PROGRESS' => '1'] + getenv());
        if (!is_resource($process)) {
            throw new BenchmarkFailure("{$this->name()}: could not start " . PHP_BINARY);
        }
        $json = (string) stream_get_contents($pipes[1]);
        fclose($pipes[1]);
        $status = proc_close($process);
        $this->log->meter?->advance($iterations);
        if ($status !== 0) {
            throw new BenchmarkFailure(sprintf('%s / %s: the PHP run with apc.serializer=%s failed (exit status %d)', $this->name(), $case->name, $this->serializer, $status));
        }

        return ResultFile::fromJson($json, "the output of the {$this->name()} run")->measurements($case->name, $this->name());
    }
}
