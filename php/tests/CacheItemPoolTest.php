<?php

declare(strict_types=1);

namespace Shm\Cache\Tests;

use PHPUnit\Framework\TestCase;
use Psr\Cache\CacheItemInterface;
use Psr\Cache\InvalidArgumentException as PsrInvalidArgument;
use Shm\Cache\CacheItemPool;
use Shm\Cache\Tests\Support\Seconds;
use Shm\Table;

/** What the conformance suite does not cover: namespaces, default TTL, batching of deferred saves. */
final class CacheItemPoolTest extends TestCase
{
    protected function setUp(): void
    {
        Table::clear('psr6-a');
        Table::clear('psr6-b');
    }

    public function testPoolsAreNamespacesAndClearEmptiesOnlyItsOwn(): void
    {
        $a = new CacheItemPool('psr6-a');
        $b = new CacheItemPool('psr6-b');
        $a->save($a->getItem('k')->set('a'));
        $b->save($b->getItem('k')->set('b'));
        $this->assertTrue($a->clear());
        $this->assertFalse($a->getItem('k')->isHit());
        $this->assertSame('b', $b->getItem('k')->get());
        $this->assertSame('b', Table::get('k', 'psr6-b'));
    }

    public function testStoredNullIsAHit(): void
    {
        $p = new CacheItemPool('psr6-a');
        $p->save($p->getItem('n')->set(null));
        $this->assertTrue($p->getItem('n')->isHit());
        $this->assertTrue($p->getItems(['n'])['n']->isHit());
        $this->assertFalse($p->getItems(['missing'])['missing']->isHit());
    }

    public function testDefaultTtlAndItemExpiry(): void
    {
        $p = new CacheItemPool('psr6-a', 100);
        $since = Seconds::since();
        $p->save($p->getItem('default')->set(1));
        $ttl = Table::ttl('default', 'psr6-a');
        $this->assertGreaterThanOrEqual(100 - Seconds::crossed($since), $ttl);
        $this->assertLessThanOrEqual(100, $ttl);
        $p->save($p->getItem('after')->set(1)->expiresAfter(10));
        $this->assertLessThanOrEqual(10, Table::ttl('after', 'psr6-a'));
        $p->save($p->getItem('at')->set(1)->expiresAt(new \DateTimeImmutable('+1 hour')));
        $this->assertGreaterThan(3500, Table::ttl('at', 'psr6-a'));
        $this->assertLessThanOrEqual(3600, Table::ttl('at', 'psr6-a'));
    }

    public function testHugeExpiriesAreCappedNotOverflowed(): void
    {
        $p = new CacheItemPool('psr6-a');
        $this->assertTrue($p->save($p->getItem('max')->set(1)->expiresAfter(PHP_INT_MAX)));
        $this->assertTrue($p->getItem('max')->isHit());
        $this->assertGreaterThan(2000000000, Table::ttl('max', 'psr6-a'));
        $this->assertTrue($p->save($p->getItem('far')->set(1)->expiresAt(new \DateTimeImmutable('+200 years'))));
        $this->assertGreaterThan(2000000000, Table::ttl('far', 'psr6-a'));
        $this->assertTrue($p->save($p->getItem('min')->set(1)->expiresAfter(PHP_INT_MIN)));
        $this->assertFalse($p->hasItem('min'), 'an expiry in the past deletes');
    }

    public function testCommitStoresEveryDeferredItemWithItsOwnTtl(): void
    {
        $p = new CacheItemPool('psr6-a');
        for ($i = 0; $i < 10; $i++) {
            $p->saveDeferred($p->getItem("k$i")->set($i)->expiresAfter($i % 2 ? 50 : null));
        }
        $this->assertSame(0, Table::count('psr6-a'), 'nothing stored before commit()');
        $this->assertTrue($p->commit());
        $this->assertSame(10, Table::count('psr6-a'));
        $this->assertFalse(Table::ttl('k0', 'psr6-a'));
        $this->assertLessThanOrEqual(50, Table::ttl('k1', 'psr6-a'));
    }

    public function testDeferredValueIsASnapshot(): void
    {
        $p = new CacheItemPool('psr6-a');
        $obj = new \stdClass();
        $obj->v = 'before';
        $item = $p->getItem('k')->set($obj);
        $p->saveDeferred($item);
        $obj->v = 'after';
        $p->commit();
        $this->assertSame('before', $p->getItem('k')->get()->v);
    }

    public function testForeignItemsAreRejected(): void
    {
        $p = new CacheItemPool('psr6-a');
        $foreign = $this->createMock(CacheItemInterface::class);
        $this->expectException(PsrInvalidArgument::class);
        $p->save($foreign);
    }

    public function testBadExpiryIsRejected(): void
    {
        $p = new CacheItemPool('psr6-a');
        $this->expectException(PsrInvalidArgument::class);
        $p->getItem('k')->expiresAfter('10');
    }
}
