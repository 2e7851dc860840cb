<?php

/*
 * The cache part of a Laravel application, served by php-fpm for FpmPrefixTest: a container with
 * config/cache.php's settings (cache.prefix is the application's, as CACHE_PREFIX sets it), Laravel's
 * CacheManager, and TableServiceProvider for the `table` driver; the `apc` driver is Laravel's own.
 * appa.php and appb.php are two applications' front controllers: they return this file's function with
 * their prefix.
 *
 * A request: ?driver=table|apc&op=OP[&k=KEY&v=VALUE]; the answer is JSON.
 *   put    Cache::put(k, v, 600)
 *   get    Cache::get(k)
 *   clear  what `php artisan cache:clear` does: CacheManager::store()->flush()
 *   info   the worker's pid, the store's prefix (and Shm\Table namespace), what is loaded
 */

declare(strict_types=1);

use Illuminate\Cache\CacheManager;
use Illuminate\Config\Repository as Config;
use Illuminate\Container\Container;
use Shm\Cache\Laravel\TableServiceProvider;

$vendor = __DIR__ . '/../../../vendor/autoload.php';
if (is_file($vendor)) {
    require_once $vendor;
} else {
    // Debian's packages, as php/tests/bootstrap.php loads them
    foreach (['Illuminate/Cache/autoload.php', 'Illuminate/Container/autoload.php', 'Illuminate/Config/autoload.php'] as $loader) {
        require_once $loader;
    }
}
require_once __DIR__ . '/../../../autoload.php';

return static function (string $prefix): void {
    header('Content-Type: application/json');
    try {
        $driver = (string) ($_GET['driver'] ?? 'table');
        $app = new Container();
        $app->instance('config', new Config(['cache' => [
            'default' => $driver,
            'prefix' => $prefix,
            'stores' => [
                'table' => ['driver' => 'table'],
                'apc' => ['driver' => 'apc'],
            ],
        ]]));
        $app->singleton('cache', fn ($app) => new CacheManager($app));
        (new TableServiceProvider($app))->register();
        /** @var CacheManager $cache */
        $cache = $app->make('cache');
        $key = (string) ($_GET['k'] ?? '');
        $out = ['pid' => getmypid()];
        switch ($_GET['op'] ?? '') {
            case 'put':
                $out['ok'] = $cache->put($key, (string) ($_GET['v'] ?? ''), 600);
                break;
            case 'get':
                $out['value'] = $cache->get($key);
                break;
            case 'clear':
                $out['ok'] = $cache->store()->flush();
                break;
            case 'info':
                $store = $cache->store()->getStore();
                $out += [
                    'prefix' => $store->getPrefix(),
                    'namespace' => method_exists($store, 'getNamespace') ? $store->getNamespace() : null,
                    'store' => get_class($store),
                    'table' => extension_loaded('table') ? (new ReflectionExtension('table'))->getVersion() : false,
                    'apcu' => function_exists('apcu_enabled') && apcu_enabled(),
                    'ini' => php_ini_loaded_file(),
                    'scanned' => php_ini_scanned_files(),
                ];
                break;
            default:
                throw new InvalidArgumentException('op: put, get, clear or info');
        }
        echo json_encode($out);
    } catch (Throwable $e) {
        http_response_code(500);
        echo json_encode(['error' => get_class($e) . ': ' . $e->getMessage() . ' at ' . $e->getFile() . ':' . $e->getLine()]);
    }
};
