<?php

declare(strict_types=1);

namespace Shm\Bench\Run;

use Shm\Bench\Benchmark;
use Shm\Bench\BenchmarkFailure;
use Shm\Bench\Log;
use Shm\Bench\Subject\TableSubject;

/**
 * Table on a named segment (run --table-segment), beside Table on this process's anonymous one, so that
 * the report's Factor is their ratio in one run. table.segment is PHP_INI_SYSTEM, so each case runs in a
 * second PHP (SecondPhp) with this process's own options, zero-copy included, plus -d table.segment=<a name
 * of this run> -d table.segment_dir=<a fresh directory> (SegmentDirectory), removed afterwards.
 *
 * It never measures the anonymous table in its place: the second PHP's Table(segment) cannot run unless
 * stats() shows it on that segment (TableSubject), that run must leave the segment file behind, and the
 * settings it reports must be those this report shows for it (segment, zero-copy, serializer, memory,
 * eviction), or the run fails.
 */
final readonly class TableSegmentParticipant implements Participant
{
    private SegmentDirectory $directory;

    public function __construct(private string $runner, private Log $log)
    {
        $this->directory = SegmentDirectory::choose();
    }

    public function name(): string
    {
        return TableSubject::SEGMENT_NAME;
    }

    public function family(): string
    {
        return 'Table';
    }

    public function unavailableReason(): ?string
    {
        $reason = (new TableSubject())->unavailableReason() ?? SecondPhp::unavailableReason();
        if ($reason === null && TableSubject::segment() !== '') {
            return sprintf('this PHP has table.segment=%s already; --table-segment compares a named segment with the anonymous one', TableSubject::segment());
        }

        return $reason;
    }

    public function version(): string
    {
        return (new TableSubject())->version();
    }

    /** This PHP's Table settings, which the second PHP inherits, on this run's segment. */
    public function settings(): array
    {
        return array_replace((new TableSubject())->settings(), ['segment' => $this->directory->segment(), 'segment_dir' => $this->directory->path]);
    }

    public function unsupportedReason(Benchmark $case): ?string
    {
        return null;
    }

    public function measure(Benchmark $case, Plan $plan): array
    {
        $this->directory->sweep($this->log);
        $this->directory->create();
        $measured = false;
        try {
            $report = (new SecondPhp($this->runner, $this->log))->run(
                $this->name(),
                ['table.segment' => $this->directory->segment(), 'table.segment_dir' => $this->directory->path],
                [],
                $case,
                $plan,
                "table.segment={$this->directory->segment()} in {$this->directory->path}",
            );
            $file = $this->directory->file();
            if (!is_file($file)) {
                throw new BenchmarkFailure("{$this->name()} / {$case->name}: the second PHP left no segment file $file; it did not run on the named segment");
            }
            $this->checkSettings($report->settings($this->name()), $case);
            $measurements = $report->measurements($case->name, $this->name());
            $measured = true;
        } finally {
            $problem = $this->directory->remove();
            if ($problem !== null && !$measured) {
                $this->log->warn($problem);
            }
        }
        if ($problem !== null) {
            throw new BenchmarkFailure("{$this->name()} / {$case->name}: $problem");
        }

        return $measurements;
    }

    /** @param array<string, string>|null $reported the settings the second PHP reported for its subject */
    private function checkSettings(?array $reported, Benchmark $case): void
    {
        $shown = $this->settings();
        $differences = [];
        foreach (array_keys($shown + ($reported ?? [])) as $name) {
            if (($shown[$name] ?? null) !== ($reported[$name] ?? null)) {
                $differences[] = sprintf('%s %s there, %s here', $name, $reported[$name] ?? '(none)', $shown[$name] ?? '(none)');
            }
        }
        if ($reported !== null && $differences === []) {
            return;
        }
        throw new BenchmarkFailure(sprintf(
            '%s / %s: the second PHP ran its table otherwise than this report shows: %s',
            $this->name(),
            $case->name,
            $reported === null ? 'it reported no settings' : implode('; ', $differences),
        ));
    }
}
