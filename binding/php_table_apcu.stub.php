<?php

/**
 * APCu 5.1's userland functions, provided on the shared table when table.apcu_compat=1 and the real APCu
 * is not loaded (binding/php_table_apcu_module.c registers them under a module named "apcu"). The
 * signatures are APCu's own, so that reflection, named arguments and by-reference $success behave the
 * same. php_table_apcu_arginfo.h is generated from this file by scripts/gen-arginfo.sh; never edit the
 * header by hand.
 *
 * @generate-function-entries PHP_TABLE_HIDDEN
 * @generate-class-entries PHP_TABLE_HIDDEN
 */

function apcu_clear_cache(): bool {}

function apcu_cache_info(bool $limited = false): array|false {}

function apcu_key_info(string $key): ?array {}

function apcu_sma_info(bool $limited = false): array|false {}

function apcu_enabled(): bool {}

/** @param array|string $key */
function apcu_store($key, mixed $value = UNKNOWN, int $ttl = 0): array|bool {}

/** @param array|string $key */
function apcu_add($key, mixed $value = UNKNOWN, int $ttl = 0): array|bool {}

/** @param bool $success */
function apcu_inc(string $key, int $step = 1, &$success = null, int $ttl = 0): int|false {}

/** @param bool $success */
function apcu_dec(string $key, int $step = 1, &$success = null, int $ttl = 0): int|false {}

function apcu_cas(string $key, int $old, int $new): bool {}

/**
 * @param array|string $key
 * @param bool $success
 */
function apcu_fetch($key, &$success = null): mixed {}

/** @param array|string $key */
function apcu_exists($key): array|bool {}

/** @param array|string $key */
function apcu_delete($key): array|bool {}

function apcu_entry(string $key, callable $callback, int $ttl = 0): mixed {}

/** APCu's iterator over the cache (binding/php_table_apcu_iterator.c): the apcu namespace, in chunks. */
class APCUIterator implements Iterator
{
    /** @param array|string|null $search */
    public function __construct($search = null, int $format = APC_ITER_ALL, int $chunk_size = 0,
                                int $list = APC_LIST_ACTIVE) {}

    public function rewind(): void {}

    public function next(): void {}

    public function valid(): bool {}

    public function key(): string|int {}

    public function current(): mixed {}

    public function getTotalHits(): int {}

    public function getTotalSize(): int {}

    public function getTotalCount(): int {}
}
