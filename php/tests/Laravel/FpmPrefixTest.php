<?php

declare(strict_types=1);

namespace Shm\Cache\Tests\Laravel;

use PHPUnit\Framework\TestCase;
use Shm\Cache\Tests\Support\Fpm;

/**
 * Two Laravel applications served by ONE php-fpm pool, as two sites of a host often are: application A
 * (cache.prefix "appa", fpm/appa.php) and application B ("appb", fpm/appb.php), both using the `table`
 * driver through Laravel's CacheManager and Repository, in a real php-fpm of this PHP that loads the
 * table.so under test (TABLE_SO, which php/tests/run.sh sets; else the table.so this PHP has loaded).
 * Requests go to the pool over FastCGI, as from a web server. The same runs with Laravel's `apc` driver
 * when APCu loads in that php-fpm.
 *
 * Skipped only when no php-fpm of this PHP is installed (the skip message says what was looked for).
 */
final class FpmPrefixTest extends TestCase
{
    private static ?Fpm $fpm = null;
    private static string $dir;
    private static bool $ownDir = false;
    private static bool $apcu = false;

    public static function setUpBeforeClass(): void
    {
        $so = self::tableSo();
        $bin = Fpm::find($why);
        if ($bin === null || $so === null) {
            return;   // setUp() skips or fails, with the reason
        }
        // php/tests/run.sh names the directory (and stops a php-fpm left running in it); else one of our own.
        $dir = getenv('TABLE_FPM_DIR');
        if ($dir === false || $dir === '') {
            $dir = sys_get_temp_dir() . '/table-fpm-test-' . getmypid();
            self::$ownDir = true;
        }
        self::$dir = $dir;
        $extDir = (string) ini_get('extension_dir');
        // APCu for the apc driver, when this PHP has it (the scan dir, which may load it, is off in php-fpm).
        self::$apcu = is_file("$extDir/apcu.so");
        self::$fpm = Fpm::start($bin, $dir, [
            'extension_dir' => $extDir,
            'extension' => array_merge([$so], self::$apcu ? ['apcu'] : []),
            'table.memory' => '16M',
            'include_path' => get_include_path(),
            'display_errors' => '0',
            'log_errors' => '1',
            'error_log' => "$dir/php-error.log",
            'error_reporting' => (string) E_ALL,
        ], 2);
    }

    public static function tearDownAfterClass(): void
    {
        self::$fpm?->stop();
        self::$fpm = null;
        if (self::$ownDir) {
            array_map('unlink', array_filter(glob(self::$dir . '/*') ?: [], 'is_file'));
            @rmdir(self::$dir . '/conf.d');
            @rmdir(self::$dir);
        }
    }

    protected function setUp(): void
    {
        if (self::tableSo() === null) {
            $this->fail('no table.so for php-fpm to load: TABLE_SO is not set (php/tests/run.sh sets it) and /proc/self/maps names none');
        }
        if (self::$fpm === null) {
            Fpm::find($why);
            $this->markTestSkipped((string) $why);
        }
    }

    /** The table.so under test: TABLE_SO (php/tests/run.sh), else the one this PHP has loaded. */
    private static function tableSo(): ?string
    {
        $so = getenv('TABLE_SO');
        if ($so !== false && $so !== '') {
            return $so;
        }
        foreach (@file('/proc/self/maps', FILE_IGNORE_NEW_LINES) ?: [] as $line) {
            if (preg_match('#\s(/\S*/table\.so)$#', $line, $m)) {
                return $m[1];
            }
        }
        return null;
    }

    /** @return array<string, array{string}> */
    public static function drivers(): array
    {
        return ['table' => ['table'], 'apc' => ['apc']];
    }

    public function testOnePoolServesBothApplicationsWithTheTableUnderTest(): void
    {
        $a = $this->app('a', 'table', ['op' => 'info']);
        $b = $this->app('b', 'table', ['op' => 'info']);
        $this->assertSame(self::$dir . '/php.ini', $a['ini'], 'php-fpm runs with the test\'s php.ini');
        $this->assertFalse($a['scanned'], 'and no scanned ini dir');
        $this->assertNotFalse($a['table'], 'the table.so under test is loaded in php-fpm');
        $this->assertSame('Shm\Cache\Laravel\TableStore', $a['store']);
        $this->assertSame(['appa', 'appa'], [$a['prefix'], $a['namespace']], 'A: prefix "appa", the table namespace "appa"');
        $this->assertSame(['appb', 'appb'], [$b['prefix'], $b['namespace']]);
        // The master forks its workers one after the other, and on a busy machine the first can have served
        // both requests before the second exists: wait for 2 (the bound only catches a pool that never has 2).
        $deadline = microtime(true) + 60;
        while (\count($workers = self::$fpm->workers()) < 2 && microtime(true) < $deadline) {
            usleep(50000);
        }
        $this->assertCount(2, $workers, 'one pool of 2 workers');
        $this->assertContains($a['pid'], $workers);
        $this->assertContains($b['pid'], $workers);
    }

    /**
     * A puts k, B puts k with another value, each reads its own; A's cache:clear (the store's flush())
     * empties A and leaves B's k. With the apc driver the prefixes keep the keys apart too, but cache:clear
     * is apcu_clear_cache() and takes B's k with it.
     *
     * @dataProvider drivers
     */
    public function testTwoPrefixesStayApartAndCacheClearOfOneLeavesTheOther(string $driver): void
    {
        if ($driver === 'apc' && !$this->app('a', 'apc', ['op' => 'info'])['apcu']) {
            $this->markTestSkipped(self::$apcu ? 'APCu did not load in php-fpm (see ' . self::$dir . '/php-error.log)'
                : 'no apcu.so in ' . ini_get('extension_dir'));
        }
        $this->assertTrue($this->app('a', $driver, ['op' => 'clear'])['ok']);
        $this->assertTrue($this->app('b', $driver, ['op' => 'clear'])['ok']);

        $this->assertTrue($this->app('a', $driver, ['op' => 'put', 'k' => 'k', 'v' => 'from A'])['ok']);
        $this->assertTrue($this->app('b', $driver, ['op' => 'put', 'k' => 'k', 'v' => 'from B'])['ok']);
        $pids = [];
        // Read a few times: the pool's two workers answer in turn, and each must see both applications apart.
        for ($i = 0; $i < 4; $i++) {
            $ra = $this->app('a', $driver, ['op' => 'get', 'k' => 'k']);
            $rb = $this->app('b', $driver, ['op' => 'get', 'k' => 'k']);
            $this->assertSame('from A', $ra['value'], "A reads its own k (worker {$ra['pid']})");
            $this->assertSame('from B', $rb['value'], "B reads its own k (worker {$rb['pid']})");
            $pids[$ra['pid']] = $pids[$rb['pid']] = true;
        }

        $this->assertTrue($this->app('a', $driver, ['op' => 'clear'])['ok'], "A's cache:clear");
        $this->assertNull($this->app('a', $driver, ['op' => 'get', 'k' => 'k'])['value'], "A's cache:clear empties A");
        $b = $this->app('b', $driver, ['op' => 'get', 'k' => 'k'])['value'];
        if ($driver === 'table') {
            $this->assertSame('from B', $b, "A's cache:clear leaves B's k (workers " . implode(', ', array_keys($pids)) . ')');
        } else {
            $this->assertNull($b, 'ApcStore::flush() is apcu_clear_cache(): B\'s k goes too');
        }
        $this->assertSame('', $this->errorLog(), 'no PHP error in php-fpm');
    }

    /** A request to application $app ('a' or 'b'), the answer decoded; anything but a 200 fails the test. */
    private function app(string $app, string $driver, array $query): array
    {
        $r = self::$fpm->get(__DIR__ . "/fpm/app$app.php", ['driver' => $driver] + $query);
        $json = json_decode($r['body'], true);
        if ($r['status'] !== 200 || !\is_array($json)) {
            $this->fail("app$app.php?" . http_build_query($query) . ": HTTP {$r['status']} {$r['body']} {$r['stderr']} "
                . $this->errorLog());
        }
        return $json;
    }

    private function errorLog(): string
    {
        return trim((string) @file_get_contents(self::$dir . '/php-error.log'));
    }
}
