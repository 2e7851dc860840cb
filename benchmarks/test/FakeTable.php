<?php

declare(strict_types=1);

// A userland Shm\Table over APCu, for testing the runner where the extension is not built, and for
// proving that it aborts on bad data. Load it with -d auto_prepend_file=benchmarks/test/FakeTable.php
// (never together with the extension). BENCH_FAKE_TABLE_FAULT injects one fault:
//   corrupt  - every 100th set stores a changed record: seeding verification must abort the run
//   miss     - get() misses one key in the timed workers only: the timed loop must count it and fail. The
//              runner verifies in forked children too, which read each key once; a process misses only
//              from its 1,001st get on, which only a timed worker reaches.

namespace Shm;

final class Table
{
    private static ?int $seeder = null;
    private static int $gets = 0;

    public static function count(): int
    {
        return apcu_enabled() ? 0 : throw new \RuntimeException('the fake Shm\Table needs apc.enable_cli=1');
    }

    public static function set(string $key, mixed $value): bool
    {
        self::$seeder ??= getmypid();
        if (getenv('BENCH_FAKE_TABLE_FAULT') === 'corrupt' && is_array($value) && crc32($key) % 100 === 0) {
            $value['mass'] = 'corrupted';
        }

        return apcu_store("fake-table:$key", $value);
    }

    public static function get(string $key): mixed
    {
        if (getenv('BENCH_FAKE_TABLE_FAULT') === 'miss' && getmypid() !== self::$seeder && ++self::$gets > 1000
            && crc32($key) % 100 === 0) {
            return null;
        }
        $value = apcu_fetch("fake-table:$key", $found);

        return $found ? $value : null;
    }

    public static function increment(string $key): int|false
    {
        return apcu_inc("fake-table:$key");
    }

    /** @param list<string> $keys */
    public static function deleteMany(array $keys): int
    {
        return count(array_filter(array_map(static fn (string $key): bool => apcu_delete("fake-table:$key"), $keys)));
    }
}
