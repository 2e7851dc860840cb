<?php

declare(strict_types=1);

namespace Shm\Bench;

use Shm\Table;
use Throwable;

/**
 * Whether a store is usable in this PHP, and its version: one answer for the throughput subjects
 * (Support/Subject) and the eviction benchmark's caches (Support/Eviction), which drive the same stores.
 */
final class Probe
{
    /** Null when Shm\Table answers, else why not; $hint follows "not loaded" (how to load it). */
    public static function table(string $hint = ''): ?string
    {
        if (!class_exists(Table::class)) {
            return 'extension table is not loaded' . ($hint === '' ? '' : " ($hint)");
        }
        try {
            Table::count();
        } catch (Throwable $e) {
            return $e->getMessage();
        }

        return null;
    }

    public static function tableVersion(): string
    {
        return 'table ' . (phpversion('table') ?: '(not the extension: a userland Shm\Table)');
    }

    /** Null when APCu is loaded and enabled for this SAPI, else why not. */
    public static function apcu(): ?string
    {
        if (!extension_loaded('apcu')) {
            return 'extension apcu is not loaded';
        }
        if (!apcu_enabled()) {
            return PHP_SAPI === 'cli' && !ini_get('apc.enable_cli') ? 'apc.enable_cli=0 (start php with -d apc.enable_cli=1)' : 'apc.enabled=0';
        }

        return null;
    }
}
