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

/** The Laravel store, through Illuminate\Cache\Repository as an application uses it, locks included. */
final class TableStoreTest extends TestCase
{
    private Repository $cache;

    protected function setUp(): void
    {
        foreach (['lv', 'lv:locks', 'lv-other', 'lv-config', 'lv-config:locks'] as $ns) {
            Table::clear($ns);
        }
        $this->cache = new Repository(new TableStore('lv'));
    }

    public function testRepositoryBasics(): void
    {
        $c = $this->cache;
        $this->assertTrue($c->put('k', ['a' => 1], 60));
        $this->assertSame(['a' => 1], $c->get('k'));
        $this->assertSame(['a' => 1], Table::get('k', 'lv'));
        $this->assertLessThanOrEqual(60, Table::ttl('k', 'lv'));
        $this->assertTrue($c->has('k'));
        $this->assertTrue($c->missing('nope'));
        $this->assertSame('dflt', $c->get('nope', 'dflt'));
        $this->assertTrue($c->forever('f', 'ever'));
        $this->assertFalse(Table::ttl('f', 'lv'));
        $this->assertSame(['a' => 1], $c->pull('k'));
        $this->assertNull($c->get('k'));
        $this->assertTrue($c->forget('f'));
        $this->assertFalse($c->has('f'));
    }

    public function testManyAndPutMany(): void
    {
        $c = $this->cache;
        $this->assertTrue($c->putMany(['a' => 1, 'b' => 2], 60));
        $this->assertSame(['a' => 1, 'b' => 2, 'c' => null], $c->many(['a', 'b', 'c']));
        $this->assertSame(['a' => 1, 'c' => 'x'], $c->many(['a', 'c' => 'x']));
    }

    public function testAddIsAtomicAndIncrementIsExact(): void
    {
        $c = $this->cache;
        $this->assertTrue($c->add('once', 'first', 60));
        $this->assertFalse($c->add('once', 'second', 60));
        $this->assertSame('first', $c->get('once'));
        $this->assertSame(5, $c->increment('n', 5));
        $this->assertSame(3, $c->decrement('n', 2));
        $c->put('s', 'text', 60);
        $this->assertFalse($c->increment('s'));
        $this->assertSame(PHP_INT_MAX, $c->increment('big', PHP_INT_MAX));
        $this->assertFalse($c->increment('big'), 'overflow is an error, not a wrap-around');
    }

    public function testRememberAndExpiry(): void
    {
        $c = $this->cache;
        $this->assertSame('computed', $c->remember('r', 60, fn () => 'computed'));
        $this->assertSame('computed', $c->remember('r', 60, fn () => 'again'));
        $c->put('short', 1, 1);
        sleep(2);
        $this->assertNull($c->get('short'));
    }

    public function testFlushEmptiesOnlyThisStoreAndKeepsLocks(): void
    {
        $other = new Repository(new TableStore('lv-other'));
        $other->put('k', 'other', 60);
        $this->cache->put('k', 'mine', 60);
        $lock = $this->cache->lock('job', 60);
        $this->assertTrue($lock->acquire());
        $this->assertTrue($this->cache->flush());
        $this->assertNull($this->cache->get('k'));
        $this->assertSame('other', $other->get('k'));
        $this->assertFalse($this->cache->lock('job', 60)->acquire(), 'a flush does not release locks');
        $this->assertTrue($lock->release());
    }

    public function testLockOwnership(): void
    {
        $a = $this->cache->lock('job', 60);
        $b = $this->cache->lock('job', 60);
        $this->assertTrue($a->acquire());
        $this->assertFalse($b->acquire());
        $this->assertFalse($b->release(), 'only the owner releases');
        $this->assertFalse($b->get());
        $this->assertSame($a->owner(), $this->cache->restoreLock('job', $a->owner())->owner());
        $this->assertTrue($this->cache->restoreLock('job', $a->owner())->release(), 'a restored lock releases');
        $this->assertTrue($b->acquire());
        $b->forceRelease();
        $this->assertSame('ran', $a->get(fn () => 'ran'), 'get() with a callback releases afterwards');
        $this->assertTrue($b->acquire());
        $b->release();
    }

    public function testLockTtlAndBlock(): void
    {
        $a = $this->cache->lock('ttl', 1);
        $this->assertTrue($a->acquire());
        $this->assertLessThanOrEqual(1, Table::ttl('ttl', 'lv:locks'));
        $b = $this->cache->lock('ttl', 10);
        // block() waits until the 1-second lock expires (within 2 s on the table's clock of whole seconds);
        // it gives up after 60 s, a bound that only a lock that never expires reaches.
        $this->assertTrue($b->block(60));
        $this->assertFalse($a->release(), 'an expired owner cannot release the new holder');
        $this->assertTrue($b->release());
    }

    public function testLockIsExclusiveAcrossWorkers(): void
    {
        $results = Workers::run(4, function () {
            $cache = new Repository(new TableStore('lv'));
            $won = 0;
            for ($i = 0; $i < 200; $i++) {
                $lock = $cache->lock('shared', 10);
                if ($lock->acquire()) {
                    // Inside the lock: nobody else may be here.
                    if (Table::increment('inside', 1, null, 'lv') !== 1) {
                        throw new \RuntimeException('two holders at once');
                    }
                    Table::decrement('inside', 1, null, 'lv');
                    $won++;
                    $lock->release();
                }
            }
            return $won;
        });
        $this->assertCount(4, $results);
        $this->assertGreaterThan(0, array_sum($results));
        $this->assertSame(0, Table::get('inside', 'lv'));
    }

    public function testServiceProviderRegistersTheTableDriver(): void
    {
        $app = new Container();
        $app->instance('config', new Config(['cache' => [
            'default' => 'table',
            'stores' => ['table' => ['driver' => 'table', 'namespace' => 'lv-config']],
        ]]));
        $app->singleton('cache', fn ($app) => new CacheManager($app));
        (new TableServiceProvider($app))->register();

        $repo = $app->make('cache')->store('table');
        $this->assertInstanceOf(Repository::class, $repo);
        $this->assertInstanceOf(TableStore::class, $repo->getStore());
        $this->assertSame('lv-config', $repo->getStore()->getNamespace());
        $repo->put('k', 'via the manager', 60);
        $this->assertSame('via the manager', Table::get('k', 'lv-config'));
        $this->assertSame('via the manager', $app->make('cache')->get('k'), 'the default store');
        $this->assertTrue($app->make('cache')->lock('l', 5)->get());
    }
}
