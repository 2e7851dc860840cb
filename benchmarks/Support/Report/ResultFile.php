<?php

declare(strict_types=1);

namespace Shm\Bench\Report;

use Shm\Bench\BenchmarkFailure;
use Shm\Bench\Run\Iteration;
use Shm\Bench\Run\Measurement;

/** A JsonReport document read back, for compare, gate and the APCu variant runs. */
final readonly class ResultFile
{
    /**
     * @param array<string, mixed>                                  $document
     * @param array<string, array<int, array<string, array<string, mixed>>>> $rows case => workers => subject => row
     */
    private function __construct(public string $origin, private array $document, private array $rows)
    {
    }

    public static function load(string $path): self
    {
        $json = is_file($path) && is_readable($path) ? file_get_contents($path) : false;
        if ($json === false) {
            throw new BenchmarkFailure("cannot read $path");
        }

        return self::fromJson($json, $path);
    }

    public static function fromJson(string $json, string $origin): self
    {
        $document = json_decode($json, true);
        if (!is_array($document) || ($document['schema'] ?? null) !== JsonReport::SCHEMA || !is_array($document['results'] ?? null)) {
            throw new BenchmarkFailure("$origin is not a benchmark result of schema " . JsonReport::SCHEMA);
        }
        $rows = [];
        foreach ($document['results'] as $row) {
            $rows[$row['case']][$row['workers']][$row['subject']] = $row;
        }

        return new self($origin, $document, $rows);
    }

    /** @return array<string, string>|null the settings the run reported for $subject (its report header) */
    public function settings(string $subject): ?array
    {
        $settings = $this->document['environment']['subjects'][$subject]['settings'] ?? null;

        return is_array($settings) ? $settings : null;
    }

    /** "results.json (git 1a2b3c4d, 2025-01-01T00:00:00Z)" */
    public function describe(): string
    {
        $revision = $this->document['environment']['git'] ?? null;

        return sprintf('%s (%s, %s)', $this->origin, $revision === null ? 'no git revision' : 'git ' . substr($revision, 0, 12), $this->document['generated'] ?? 'undated');
    }

    /** @return array<string, array<int, list<string>>> case => workers => subjects, slowest first as reported */
    public function groups(): array
    {
        return array_map(
            static fn (array $byWorkers): array => array_map(static fn (array $bySubject): array => array_keys($bySubject), $byWorkers),
            $this->rows,
        );
    }

    public function median(string $case, int $workers, string $subject): ?float
    {
        $row = $this->rows[$case][$workers][$subject] ?? null;

        return $row === null ? null : (float) $row['median'];
    }

    /** Bytes exchanged with a server per iteration: 0 for an in-memory subject. */
    public function network(string $case, int $workers, string $subject): int
    {
        return (int) ($this->rows[$case][$workers][$subject]['network'] ?? 0);
    }

    /**
     * The iterations of the first run of $subject on $case, one Measurement per worker count.
     *
     * @return list<Measurement>
     */
    public function measurements(string $case, string $subject): array
    {
        $measurements = [];
        foreach ($this->rows[$case] ?? [] as $workers => $bySubject) {
            if (isset($bySubject[$subject])) {
                $iterations = array_map(Iteration::fromArray(...), $bySubject[$subject]['runs'][0]['iterations']);
                $measurements[] = new Measurement($case, $subject, $workers, $iterations);
            }
        }
        if ($measurements === []) {
            throw new BenchmarkFailure("{$this->origin} has no results of $subject on $case");
        }

        return $measurements;
    }
}
