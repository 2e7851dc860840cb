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

    /**
     * Who serves this PHP's apcu_*() functions: "apcu" (the APCu extension), "table" (the table extension's
     * table.apcu_compat=1, which steps aside when APCu is loaded too), or null (neither).
     */
    public static function apcuProvider(): ?string
    {
        if (!extension_loaded('apcu')) {
            return null;
        }
        // Both register a module named "apcu" with the same functions and version; only APCu's comes
        // from a file of its own.
        // (ini_get() gives the value as written: "1", "On", ...; no ext/filter, which a minimal PHP lacks.)
        $compat = extension_loaded('table')
            && in_array(strtolower(trim((string) ini_get('table.apcu_compat'))), ['1', 'on', 'yes', 'true'], true);

        return $compat && self::loadedLibrary('apcu.so') === null ? 'table' : 'apcu';
    }

    /**
     * The absolute path of the shared object named $basename this process has mapped (/proc/self/maps),
     * or null: where an extension really came from, whatever the -d extension= or php.ini line said.
     */
    public static function loadedLibrary(string $basename): ?string
    {
        $maps = @file('/proc/self/maps', FILE_IGNORE_NEW_LINES);
        foreach ($maps ?: [] as $line) {
            $path = preg_split('/\s+/', $line, 6)[5] ?? '';
            if (str_starts_with($path, '/') && basename($path) === $basename) {
                return $path;
            }
        }

        return null;
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
