<?php

/**
 * The source of truth for Shm\Table's PHP API. table_arginfo.h is generated from this file by
 * scripts/gen-arginfo.sh; never edit the header by hand.
 *
 * @generate-class-entries
 */

namespace Shm;

final class Table
{
    public static function get(string $key, ?string $namespace = null): mixed {}

    public static function getWithMeta(string $key, ?string $namespace = null): array|false {}

    public static function set(string $key, mixed $value, ?int $expire = null, ?string $namespace = null): bool {}

    public static function exists(string $key, ?string $namespace = null): bool {}

    public static function delete(string $key, ?string $namespace = null): bool {}

    public static function ttl(string $key, ?string $namespace = null): int|false {}

    public static function count(?string $namespace = null): int|false {}

    public static function clear(?string $namespace = null): bool {}

    public static function keys(mixed $pattern, ?string $namespace = null): array|false {}

    public static function memory(?string $namespace = null): int|false {}

    public static function namespaces(): array|false {}

    public static function clearAll(): int|false {}

    public static function fullscan(mixed $match = null, int $count = 0): \Generator|false {}

    public static function stats(): array|false {}

    /** The counters and gauges of stats() in the Prometheus text format (php_table_metrics.c). */
    public static function metrics(): string {}

    public static function add(string $key, mixed $value, ?int $expire = null, ?string $namespace = null): bool {}

    public static function increment(string $key, int $by = 1, ?int $expire = null, ?string $namespace = null): int|false {}

    public static function decrement(string $key, int $by = 1, ?int $expire = null, ?string $namespace = null): int|false {}

    public static function cas(string $key, mixed $expected, mixed $new, ?string $namespace = null): bool {}

    public static function deleteIf(string $key, mixed $expected, ?string $namespace = null): bool {}

    public static function remember(string $key, callable $compute, ?int $expire = null, ?string $namespace = null): mixed {}

    public static function touch(string $key, ?int $expire, ?string $namespace = null): bool {}

    public static function getMany(array $keys, ?string $namespace = null): array {}

    public static function setMany(array $values, ?int $expire = null, ?string $namespace = null, ?array &$failed = null): bool {}

    public static function deleteMany(array $keys, ?string $namespace = null): int {}

    /**
     * One batch of fullscan(): [next cursor (0 = done), [namespace0, key0, namespace1, key1, ...]].
     * Called only by the generator that fullscan() returns (see table.c); not part of the API.
     *
     * @internal
     */
    private static function fullscanChunk(int $cursor, ?string $match, int $count): array {}
}

class TableException extends \RuntimeException
{
}
