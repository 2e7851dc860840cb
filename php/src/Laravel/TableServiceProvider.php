<?php

declare(strict_types=1);

namespace Shm\Cache\Laravel;

use Illuminate\Cache\CacheManager;
use Illuminate\Support\ServiceProvider;

/**
 * Registers the `table` cache driver. In config/cache.php:
 *
 *     'stores' => [
 *         'table' => ['driver' => 'table', 'namespace' => 'laravel'],
 *     ],
 *
 * `namespace` (default "laravel") is the Shm\Table namespace of the store. Package discovery registers this
 * provider (composer.json extra.laravel); otherwise add it to config/app.php's providers.
 */
class TableServiceProvider extends ServiceProvider
{
    public function register()
    {
        $this->callAfterResolving('cache', function (CacheManager $cache): void {
            $cache->extend('table', function ($app, array $config) {
                // Bound to the CacheManager by extend(): repository() wraps the store as Laravel does.
                return $this->repository(new TableStore((string) ($config['namespace'] ?? 'laravel')));
            });
        });
    }
}
