<?php

declare(strict_types=1);

namespace Shm\Cache\Laravel;

use Illuminate\Cache\CacheManager;
use Illuminate\Support\ServiceProvider;

/**
 * Registers the `table` cache driver. In config/cache.php:
 *
 *     'stores' => [
 *         'table' => ['driver' => 'table'],
 *     ],
 *
 * The store's Shm\Table namespace is its prefix followed by its `namespace`. The prefix is read as the
 * `apc` driver reads it: the store's `prefix`, else `cache.prefix`. `namespace` defaults to nothing when
 * there is a prefix and to "laravel" when there is none. Package discovery registers this provider
 * (composer.json extra.laravel); otherwise add it to config/app.php's providers.
 */
class TableServiceProvider extends ServiceProvider
{
    public function register()
    {
        $this->callAfterResolving('cache', function (CacheManager $cache): void {
            $cache->extend('table', function ($app, array $config) {
                // Bound to the CacheManager by extend(): getPrefix() and repository() are the manager's own.
                $prefix = (string) $this->getPrefix($config);
                $namespace = (string) ($config['namespace'] ?? ($prefix === '' ? 'laravel' : ''));
                return $this->repository(new TableStore($namespace, $prefix));
            });
        });
    }
}
