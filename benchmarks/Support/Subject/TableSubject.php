<?php

declare(strict_types=1);

namespace Shm\Bench\Subject;

use Shm\Bench\Dataset;
use Shm\Bench\Probe;
use Shm\Table;

/**
 * This project's Shm\Table, default namespace. A miss is a null from get(); no case stores null.
 *
 * Its name carries the kind of segment, as APCu's carries its serializer: "Table" on the anonymous segment,
 * "Table(segment)" where table.segment names a file-backed one (run --table-segment starts a second PHP so).
 * A Table(segment) that Shm\Table::stats() does not show on that segment, or that cannot read without
 * copying there while zero-copy is on, cannot run: it must never measure the anonymous table in its place.
 */
final class TableSubject extends InMemorySubject implements CountingSubject
{
    public const SEGMENT_NAME = 'Table(segment)';

    public function name(): string
    {
        return self::segment() === '' ? 'Table' : self::SEGMENT_NAME;
    }

    public function family(): string
    {
        return 'Table';
    }

    public function unavailableReason(): ?string
    {
        return Probe::table('php -d extension=modules/table.so') ?? self::segmentProblem();
    }

    public function version(): string
    {
        return Probe::tableVersion();
    }

    /** What stats() reports of the mode and the segment besides the settings: the table that ran. */
    public function settings(): array
    {
        $settings = [
            'serializer' => ini_get('table.serializer'),
            'memory' => ini_get('table.memory'),
            'eviction' => ini_get('table.eviction_policy'),
        ];
        // A userland Shm\Table (test/FakeTable.php) has no stats().
        $stats = method_exists(Table::class, 'stats') ? Table::stats() : [];
        if (array_key_exists('zero_copy', $stats)) {
            $settings['zero-copy'] = $stats['zero_copy'] ? 'on' : 'off';
        }
        if (array_key_exists('segment_same_base', $stats)) {
            $settings['segment'] = $stats['segment'] ?? 'anonymous';
        }
        if (isset($stats['segment_path'])) {
            $settings['segment_dir'] = dirname($stats['segment_path']);
        }

        return array_filter($settings, 'is_string');
    }

    /** table.segment: '' for the anonymous segment (and where the extension is not loaded). */
    public static function segment(): string
    {
        return (string) ini_get('table.segment');
    }

    /** Why a named segment is not what this process's table runs on, or null (also when none is named). */
    private static function segmentProblem(): ?string
    {
        $segment = self::segment();
        if ($segment === '') {
            return null;
        }
        $stats = Table::stats();
        if (($stats['segment'] ?? null) !== $segment) {
            return sprintf('table.segment=%s, but Shm\Table::stats() names the segment %s: this is not the named segment', $segment, var_export($stats['segment'] ?? null, true));
        }
        if (($stats['zero_copy'] ?? false) === true && ($stats['segment_same_base'] ?? null) !== true) {
            return "zero-copy is on, but segment $segment is not mapped at its creator's address here (stats()['segment_same_base'] is not true), so every read would copy";
        }

        return null;
    }

    public function store(string $key, mixed $value): bool
    {
        return Table::set($key, $value);
    }

    public function read(string $key): array
    {
        $value = Table::get($key);

        return [$value !== null, $value];
    }

    public function end(Dataset $dataset): void
    {
        Table::deleteMany($dataset->keys);
    }

    public function getBatch(array $keys, int $from, int $count): int
    {
        $size = count($keys);
        $misses = 0;
        for ($i = $from, $end = $from + $count; $i < $end; $i++) {
            if (Table::get($keys[$i % $size]) === null) {
                $misses++;
            }
        }

        return $misses;
    }

    public function setBatch(array $keys, array $values, int $from, int $count): int
    {
        $size = count($keys);
        $failures = 0;
        for ($i = $from, $end = $from + $count; $i < $end; $i++) {
            if (!Table::set($keys[$i % $size], $values[$i % $size])) {
                $failures++;
            }
        }

        return $failures;
    }

    public function incrementBatch(array $keys, int $from, int $count): int
    {
        $size = count($keys);
        $failures = 0;
        for ($i = $from, $end = $from + $count; $i < $end; $i++) {
            if (Table::increment($keys[$i % $size]) === false) {
                $failures++;
            }
        }

        return $failures;
    }
}
