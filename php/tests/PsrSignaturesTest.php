<?php

declare(strict_types=1);

namespace Shm\Cache\Tests;

use PHPUnit\Framework\TestCase;

/**
 * The classes must load against psr/cache and psr/simple-cache 1, 2 and 3. Debian ships version 1 (which
 * the other tests use); versions 2 and 3 typed the parameters and then the returns. PHP checks a class
 * against its interfaces when it declares it, so each version is tried in a fresh process that declares
 * that version's interfaces (their signatures as the PSR packages publish them, written out below) and
 * then loads every class: an incompatible signature is a fatal error there.
 */
final class PsrSignaturesTest extends TestCase
{
    private const V2 = <<<'PHP'
namespace Psr\SimpleCache {
    interface CacheException extends \Throwable {}
    interface InvalidArgumentException extends CacheException {}
    interface CacheInterface {
        public function get(string $key, mixed $default = null);
        public function set(string $key, mixed $value, null|int|\DateInterval $ttl = null);
        public function delete(string $key);
        public function clear();
        public function getMultiple(iterable $keys, mixed $default = null);
        public function setMultiple(iterable $values, null|int|\DateInterval $ttl = null);
        public function deleteMultiple(iterable $keys);
        public function has(string $key);
    }
}
namespace Psr\Cache {
    interface CacheException extends \Throwable {}
    interface InvalidArgumentException extends CacheException {}
    interface CacheItemInterface {
        public function getKey();
        public function get();
        public function isHit();
        public function set(mixed $value);
        public function expiresAt(?\DateTimeInterface $expiration);
        public function expiresAfter(int|\DateInterval|null $time);
    }
    interface CacheItemPoolInterface {
        public function getItem(string $key);
        public function getItems(array $keys = []);
        public function hasItem(string $key);
        public function clear();
        public function deleteItem(string $key);
        public function deleteItems(array $keys);
        public function save(CacheItemInterface $item);
        public function saveDeferred(CacheItemInterface $item);
        public function commit();
    }
}
PHP;

    private const V3 = <<<'PHP'
namespace Psr\SimpleCache {
    interface CacheException extends \Throwable {}
    interface InvalidArgumentException extends CacheException {}
    interface CacheInterface {
        public function get(string $key, mixed $default = null): mixed;
        public function set(string $key, mixed $value, null|int|\DateInterval $ttl = null): bool;
        public function delete(string $key): bool;
        public function clear(): bool;
        public function getMultiple(iterable $keys, mixed $default = null): iterable;
        public function setMultiple(iterable $values, null|int|\DateInterval $ttl = null): bool;
        public function deleteMultiple(iterable $keys): bool;
        public function has(string $key): bool;
    }
}
namespace Psr\Cache {
    interface CacheException extends \Throwable {}
    interface InvalidArgumentException extends CacheException {}
    interface CacheItemInterface {
        public function getKey(): string;
        public function get(): mixed;
        public function isHit(): bool;
        public function set(mixed $value): static;
        public function expiresAt(?\DateTimeInterface $expiration): static;
        public function expiresAfter(int|\DateInterval|null $time): static;
    }
    interface CacheItemPoolInterface {
        public function getItem(string $key): CacheItemInterface;
        public function getItems(array $keys = []): iterable;
        public function hasItem(string $key): bool;
        public function clear(): bool;
        public function deleteItem(string $key): bool;
        public function deleteItems(array $keys): bool;
        public function save(CacheItemInterface $item): bool;
        public function saveDeferred(CacheItemInterface $item): bool;
        public function commit(): bool;
    }
}
PHP;

    /** @return array<string, array{string}> */
    public static function versions(): array
    {
        return ['psr 2' => [self::V2], 'psr 3' => [self::V3]];
    }

    /** @dataProvider versions */
    public function testClassesLoadAgainstTheInterfaces(string $interfaces): void
    {
        $dir = sys_get_temp_dir() . '/table-psr-' . getmypid() . '-' . bin2hex(random_bytes(4));
        mkdir($dir);
        try {
            file_put_contents("$dir/psr.php", "<?php\n" . $interfaces . "\n");
            $src = var_export(\dirname(__DIR__) . '/src/', true);
            file_put_contents("$dir/check.php", <<<PHP
<?php
require __DIR__ . '/psr.php';
spl_autoload_register(static function (string \$c): void {
    if (strncmp(\$c, 'Shm\\\\Cache\\\\', 10) === 0) { require $src . str_replace('\\\\', '/', substr(\$c, 10)) . '.php'; }
});
foreach (['Shm\\Cache\\SimpleCache', 'Shm\\Cache\\CacheItemPool', 'Shm\\Cache\\CacheItem',
          'Shm\\Cache\\InvalidArgumentException', 'Shm\\Cache\\CacheException'] as \$class) {
    if (!class_exists(\$class)) { echo "missing \$class\\n"; exit(1); }
}
\$r = new ReflectionMethod('Psr\\SimpleCache\\CacheInterface', 'get');
echo 'ok ', \$r->getParameters()[0]->getType() ?? 'untyped', "\\n";
PHP);
            $out = shell_exec(escapeshellarg(PHP_BINARY) . ' -n -d display_errors=1 ' . escapeshellarg("$dir/check.php") . ' 2>&1');
            $this->assertSame("ok string\n", $out, 'loading against these interfaces failed');
        } finally {
            @unlink("$dir/psr.php");
            @unlink("$dir/check.php");
            @rmdir($dir);
        }
    }
}
