<?php

/*
 * PHPUnit bootstrap of table/cache's tests. Loads the library through php/autoload.php (the no-Composer
 * path, so that it is tested too), then the third-party code the tests run against: Composer's vendor/ when
 * there is one, otherwise Debian's packages under /usr/share/php (php-cache-integration-tests,
 * php-symfony-cache, php-illuminate-cache, php-illuminate-container, php-illuminate-config).
 */

if (!class_exists(\Shm\Table::class)) {
    fwrite(STDERR, "table/cache tests: the table extension is not loaded (php -d extension=/path/to/table.so)\n");
    exit(1);
}

$vendor = __DIR__ . '/../vendor/autoload.php';
if (is_file($vendor)) {
    require $vendor;
} else {
    foreach ([
        'Psr/Cache/autoload.php',
        'Psr/SimpleCache/autoload.php',
        'Cache/IntegrationTests/autoload.php',
        'Symfony/Component/Cache/autoload.php',
        'Symfony/Bundle/FrameworkBundle/autoload.php',
        'Illuminate/Cache/autoload.php',
        'Illuminate/Container/autoload.php',
        'Illuminate/Config/autoload.php',
    ] as $loader) {
        if (($path = stream_resolve_include_path($loader)) !== false) {
            require_once $path;
        }
    }
    // What Composer's autoloader would give and Debian's per-package autoloaders do not: Symfony 6.4's
    // value wrapper (the class "\xA9", in Composer's classmap of symfony/cache), and
    // Composer\InstalledVersions, without which Symfony 6.4's ContainerBuilder::willBeAvailable() refuses
    // to answer (Debian's composer package ships it).
    foreach (['Symfony/Component/Cache/Traits/ValueWrapper.php' => "\xA9", 'Composer/InstalledVersions.php' => 'Composer\InstalledVersions'] as $file => $class) {
        if (!class_exists($class, false) && ($path = stream_resolve_include_path($file)) !== false) {
            require_once $path;
        }
    }
}
require __DIR__ . '/../autoload.php';

spl_autoload_register(static function (string $class): void {
    if (strncmp($class, 'Shm\\Cache\\Tests\\', 16) === 0) {
        $file = __DIR__ . '/' . str_replace('\\', '/', substr($class, 16)) . '.php';
        if (is_file($file)) {
            require $file;
        }
    }
});
