<?php

declare(strict_types=1);

namespace Shm\Cache\Tests;

use PHPUnit\Framework\TestCase;

/**
 * php/README.md's Composer route for now: an application requires table/cache from a path repository pointing at
 * php/ of a clone. Run offline with Debian's composer: Packagist is turned off and psr/cache and
 * psr/simple-cache come from path repositories over Debian's php-psr-cache and php-psr-simple-cache.
 */
final class ComposerPathRepositoryTest extends TestCase
{
    private string $dir;

    protected function tearDown(): void
    {
        if (isset($this->dir) && is_dir($this->dir)) {
            exec('rm -rf ' . escapeshellarg($this->dir));
        }
    }

    public function testRequireTableCacheFromAPathRepository(): void
    {
        $composer = trim((string) shell_exec('command -v composer'));
        $so = getenv('TABLE_SO');
        if ($composer === '' || $so === false || $so === '') {
            $this->markTestSkipped('needs composer (apt-get install composer) and TABLE_SO');
        }
        $this->dir = sys_get_temp_dir() . '/table-composer-' . getmypid() . '-' . bin2hex(random_bytes(4));
        mkdir($this->dir . '/app', 0777, true);
        $repos = [['type' => 'path', 'url' => \dirname(__DIR__)]];   // as README shows it
        foreach (['psr/cache' => 'Psr/Cache', 'psr/simple-cache' => 'Psr/SimpleCache'] as $name => $dir) {
            $src = stream_resolve_include_path($dir . '/autoload.php');
            if ($src === false) {
                $this->markTestSkipped("Debian's $name is not installed");
            }
            $stub = $this->dir . '/' . str_replace('/', '-', $name);
            mkdir($stub);
            symlink(\dirname($src), $stub . '/src');
            file_put_contents($stub . '/composer.json', json_encode([
                'name' => $name, 'version' => '1.0.0', 'autoload' => ['files' => ['src/autoload.php']],
            ]));
            $repos[] = ['type' => 'path', 'url' => $stub];
        }
        $repos[] = ['packagist.org' => false];
        file_put_contents($this->dir . '/app/composer.json', json_encode([
            'repositories' => $repos,
            'require' => ['table/cache' => '*@dev'],
        ], JSON_UNESCAPED_SLASHES | JSON_PRETTY_PRINT));

        $php = escapeshellarg(PHP_BINARY) . ' -d extension=' . escapeshellarg($so);
        $cd = 'cd ' . escapeshellarg($this->dir . '/app') . ' && ';
        exec($cd . 'COMPOSER_ALLOW_SUPERUSER=1 COMPOSER_HOME=' . escapeshellarg($this->dir . '/home') . ' ' . $php . ' '
            . escapeshellarg($composer) . ' install --no-interaction --no-progress 2>&1', $out, $rc);
        $this->assertSame(0, $rc, implode("\n", $out));
        $this->assertFileExists($this->dir . '/app/vendor/table/cache/src/SimpleCache.php');

        $code = 'require "vendor/autoload.php"; $c = new Shm\Cache\SimpleCache("composer-test");'
            . ' $c->set("k", "via Composer"); echo $c->get("k"); $c->clear();';
        $this->assertSame('via Composer', shell_exec($cd . $php . ' -r ' . escapeshellarg($code) . ' 2>&1'));
    }
}
