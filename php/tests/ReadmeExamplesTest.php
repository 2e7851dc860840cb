<?php

declare(strict_types=1);

namespace Shm\Cache\Tests;

use Illuminate\Cache\CacheManager;
use Illuminate\Config\Repository as Config;
use Illuminate\Container\Container;
use PHPUnit\Framework\TestCase;
use Shm\Cache\CacheItemPool;
use Shm\Cache\Laravel\TableServiceProvider;
use Shm\Cache\SimpleCache;
use Shm\Cache\Symfony\TableAdapter;
use Shm\Cache\Tests\Support\Seconds;
use Shm\Table;
use Symfony\Contracts\Cache\ItemInterface;

/** The snippets of php/README.md's "Usage and configuration" section, as written there. */
final class ReadmeExamplesTest extends TestCase
{
    protected function setUp(): void
    {
        Table::clear('app');
        Table::clear('myapp_cache_');
        Table::clear('myapp_cache_:locks');
        Table::delete('app', '@versions');
    }

    public function testPsr16AndPsr6Snippet(): void
    {
        $user = new \stdClass();
        $user->id = 42;

        $cache = new SimpleCache('app', 3600);
        $since = Seconds::since();
        $cache->set('config', ['debug' => false]);
        $cache->set('flag', true, new \DateInterval('PT5M'));
        $pool = new CacheItemPool('app');
        $pool->save($pool->getItem('user.42')->set($user)->expiresAfter(60));

        $ttl = Table::ttl('config', 'app');
        $this->assertGreaterThanOrEqual(3600 - Seconds::crossed($since), $ttl, 'the default TTL of 3600 s');
        $this->assertLessThanOrEqual(3600, $ttl);
        $this->assertLessThanOrEqual(300, Table::ttl('flag', 'app'));
        $this->assertEquals($user, $pool->getItem('user.42')->get());
        $cache->set('flag', true, -1);
        $this->assertFalse($cache->has('flag'), 'a negative TTL deletes');
    }

    public function testSymfonySnippet(): void
    {
        $deployVersion = 'build-1';
        $calls = 0;
        $build = function () use (&$calls) {
            $calls++;
            return ['rows' => 3];
        };

        $cache = new TableAdapter('app', 0, $deployVersion);
        foreach ([1, 2] as $_) {
            $report = $cache->get('report', function (ItemInterface $item) use ($build) {
                $item->expiresAfter(300);
                return $build();
            });
        }
        $this->assertSame(['rows' => 3], $report);
        $this->assertSame(1, $calls);
        $this->assertLessThanOrEqual(300, Table::ttl('report', 'app'));
    }

    public function testLaravelSnippet(): void
    {
        $app = new Container();
        $app->instance('config', new Config(['cache' => [
            'default' => 'table',
            'prefix' => 'myapp_cache_',
            'stores' => ['table' => ['driver' => 'table']],
        ]]));
        $app->singleton('cache', fn ($app) => new CacheManager($app));
        (new TableServiceProvider($app))->register();
        $john = ['name' => 'John'];

        $app['cache']->store('table')->put('k', 'v', 60);
        $sent = $app['cache']->store('table')->lock('invoice:42', 10)->get(fn () => 'sent 42');
        $app['cache']->store('table')->tags(['people', 'artists'])->put('john', $john, 60);
        $this->assertSame($john, $app['cache']->store('table')->tags(['people', 'artists'])->get('john'));
        $app['cache']->store('table')->tags(['people'])->flush();

        $this->assertSame('myapp_cache_', $app['cache']->store('table')->getPrefix());
        $this->assertSame('v', Table::get('k', 'myapp_cache_'), 'table namespace "myapp_cache_"');
        $this->assertSame('sent 42', $sent);
        $this->assertFalse(Table::exists('invoice:42', 'myapp_cache_:locks'), 'get() with a callback released the lock');
        $this->assertNull($app['cache']->store('table')->tags(['people', 'artists'])->get('john'), 'flush() of a tag drops john');
    }
}
