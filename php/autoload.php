<?php

/*
 * autoload.php - use table/cache without Composer: `require '/path/to/php/autoload.php';`
 *
 * Registers a PSR-4 loader for Shm\Cache\ -> src/. The PSR interfaces (psr/cache, psr/simple-cache) must
 * be loadable too: when they are not, this file loads the ones a system package installed on the include
 * path (Debian's php-psr-cache and php-psr-simple-cache put Psr/Cache/autoload.php and
 * Psr/SimpleCache/autoload.php under /usr/share/php).
 */

spl_autoload_register(static function (string $class): void {
    if (strncmp($class, 'Shm\\Cache\\', 10) !== 0) {
        return;
    }
    $file = __DIR__ . '/src/' . str_replace('\\', '/', substr($class, 10)) . '.php';
    if (is_file($file)) {
        require $file;
    }
});

foreach (['Psr\\SimpleCache\\CacheInterface' => 'Psr/SimpleCache/autoload.php',
          'Psr\\Cache\\CacheItemPoolInterface' => 'Psr/Cache/autoload.php'] as $interface => $loader) {
    if (!interface_exists($interface) && ($path = stream_resolve_include_path($loader)) !== false) {
        require_once $path;
    }
}
