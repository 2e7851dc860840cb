<?php

declare(strict_types=1);

// Maps Shm\Bench\Foo\Bar to Support/Foo/Bar.php: one class per file, no Composer.
spl_autoload_register(static function (string $class): void {
    $prefix = 'Shm\\Bench\\';
    if (!str_starts_with($class, $prefix)) {
        return;
    }
    $file = __DIR__ . '/' . str_replace('\\', '/', substr($class, strlen($prefix))) . '.php';
    if (is_file($file)) {
        require $file;
    }
});
