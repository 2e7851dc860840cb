<?php

declare(strict_types=1);

namespace Shm\Cache\Tests\Laravel;

use Illuminate\Cache\CacheManager;
use Illuminate\Cache\Repository;
use Illuminate\Config\Repository as Config;
use Illuminate\Container\Container;
use PHPUnit\Framework\TestCase;
use Shm\Cache\Laravel\TableServiceProvider;
use Shm\Cache\Laravel\TableStore;
use Shm\Cache\Tests\Support\Workers;
use Shm\Table;

/**
 * The `table` driver next to Laravel's `apc` driver (ApcStore over APCu), the same test run against both:
 * the cache prefix and Cache::tags(). Both stores are built by CacheManager from the same store config,
 * as an application builds them. Needs APCu with apc.enable_cli=1 (php/tests/run.sh sets it).
 */
final class ApcParityTest extends TestCase
{
    private const NAMESPACES = ['app1_', 'app1_:locks', 'app2_', 'app2_:locks', 'global_', 'laravel', 'tagged_'];

    protected function setUp(): void
    {
        foreach (self::NAMESPACES as $ns) {
            Table::clear($ns);
        }
        if (\function_exists('apcu_enabled') && apcu_enabled()) {
            apcu_clear_cache();
        }
    }

    protected function tearDown(): void
    {
        $this->setUp();
    }

    /** @return array<string, array{string}> */
    public static function drivers(): array
    {
        return ['apc' => ['apc'], 'table' => ['table']];
    }

    /** A store built by CacheManager with $config (driver added), in an app whose cache.prefix is $global. */
    private function store(string $driver, array $config = [], ?string $global = null): Repository
    {
        if ($driver === 'apc' && !(\function_exists('apcu_enabled') && apcu_enabled())) {
            $this->markTestSkipped('APCu is not loaded or apc.enable_cli is off');
        }
        $app = new Container();
        $app->instance('config', new Config(['cache' => [
            'default' => 's',
            'prefix' => $global,
            'stores' => ['s' => ['driver' => $driver] + $config],
        ]]));
        $app->singleton('cache', fn ($app) => new CacheManager($app));
        (new TableServiceProvider($app))->register();
        return $app->make('cache')->store('s');
    }

    /** @dataProvider drivers */
    public function testPrefixIsTheStoresOrTheGlobalOne(string $driver): void
    {
        $this->assertSame('app1_', $this->store($driver, ['prefix' => 'app1_'], 'global_')->getStore()->getPrefix());
        $this->assertSame('global_', $this->store($driver, [], 'global_')->getStore()->getPrefix());
        // Neither configured: ApcStore keeps the null it was given, TableStore says ''.
        $this->assertSame('', (string) $this->store($driver)->getStore()->getPrefix());
    }

    public function testThePrefixStartsTheTableNamespace(): void
    {
        $this->assertSame('app1_', $this->store('table', ['prefix' => 'app1_'])->getStore()->getNamespace());
        $this->assertSame('global_', $this->store('table', [], 'global_')->getStore()->getNamespace());
        $this->assertSame('app1_cache', $this->store('table', ['prefix' => 'app1_', 'namespace' => 'cache'])->getStore()->getNamespace());
        $this->assertSame('laravel', $this->store('table')->getStore()->getNamespace(), 'no prefix: "laravel"');
        $this->assertSame('app1_', (new TableStore('', 'app1_'))->getNamespace());
        $this->store('table', ['prefix' => 'app1_'])->put('k', 'v', 60);
        $this->assertSame('v', Table::get('k', 'app1_'), 'keys are stored as given, in the prefixed namespace');
        $this->expectException(\InvalidArgumentException::class);
        new TableStore('', '');
    }

    /**
     * Two applications with different prefixes, each in its own worker process (two php-fpm pools of one
     * master): their keys stay apart. cache:clear (flush()) of one then runs in another worker: the
     * table driver leaves the other application's keys, Laravel's ApcStore::flush() empties all of APCu.
     *
     * @dataProvider drivers
     */
    public function testTwoAppsWithDifferentPrefixesStayApart(string $driver): void
    {
        $this->store($driver);   // skips the apc case without APCu
        $app = fn (int $i) => $this->store($driver, ['prefix' => 'app' . ($i + 1) . '_']);
        $seen = Workers::run(2, function (int $i) use ($app) {
            $cache = $app($i);
            $cache->put('user', 'of app ' . ($i + 1), 60);
            $cache->forever('config', ['app' => $i + 1]);
            return $cache->getStore()->getPrefix();
        });
        $this->assertSame(['app1_', 'app2_'], $seen);
        $this->assertSame('of app 1', $app(0)->get('user'));
        $this->assertSame('of app 2', $app(1)->get('user'));
        $this->assertSame(['app' => 2], $app(1)->get('config'));

        Workers::run(1, fn () => $app(0)->flush());
        $this->assertNull($app(0)->get('user'), 'flush() empties its own application');
        if ($driver === 'table') {
            $this->assertSame('of app 2', $app(1)->get('user'), "the table driver's flush leaves the other application");
            $this->assertSame(['app' => 2], $app(1)->get('config'));
        } else {
            $this->assertNull($app(1)->get('user'), 'ApcStore::flush() is apcu_clear_cache(): every application');
        }
    }

    /** @dataProvider drivers */
    public function testTagsPutGetFlush(string $driver): void
    {
        $cache = $this->store($driver, ['prefix' => 'tagged_']);
        $cache->tags(['people', 'artists'])->put('john', 'John', 60);
        $cache->tags('people')->put('anne', 'Anne', 60);
        $cache->tags(['artists'])->forever('bob', 'Bob');
        $this->assertSame(2, $cache->tags(['artists'])->increment('count', 2));

        $this->assertSame('John', $cache->tags(['people', 'artists'])->get('john'));
        $this->assertNull($cache->tags(['artists', 'people'])->get('john'), 'the order of the tags matters');
        $this->assertNull($cache->get('john'), 'a tagged item is not an untagged one');
        $this->assertSame('Anne', $cache->tags(['people'])->get('anne'));
        $this->assertSame(['anne' => 'Anne', 'nobody' => null], $cache->tags(['people'])->many(['anne', 'nobody']));
        $this->assertSame('computed', $cache->tags(['people'])->remember('r', 60, fn () => 'computed'));
        $this->assertSame('computed', $cache->tags(['people'])->remember('r', 60, fn () => 'again'));

        $this->assertTrue($cache->tags(['people'])->flush());
        $this->assertNull($cache->tags(['people'])->get('anne'));
        $this->assertNull($cache->tags(['people', 'artists'])->get('john'), 'flushing one of its tags drops it');
        $this->assertSame('Bob', $cache->tags(['artists'])->get('bob'), 'other tags are untouched');
        $this->assertSame(2, $cache->tags(['artists'])->get('count'));

        $cache->tags(['people'])->put('anne', 'Anne again', 60);
        $this->assertSame('Anne again', $cache->tags(['people'])->get('anne'), 'a flushed tag takes new items');
        $this->assertTrue($cache->tags(['people'])->forget('anne'));
        $this->assertNull($cache->tags(['people'])->get('anne'));
    }
}
