<?php

declare(strict_types=1);

namespace Shm\Cache\Tests\Laravel;

use PHPUnit\Framework\TestCase;
use Shm\Cache\Laravel\TableStore;
use Shm\Table;

/** TableLock::release() is one atomic compare-and-delete (Shm\Table::deleteIf()). */
final class TableLockTest extends TestCase
{
    protected function setUp(): void
    {
        Table::clear('lk:locks');
    }

    /**
     * The owner's TTL runs out after its ownership check, the next owner takes the lock, then the first
     * owner releases: the next owner's lock survives. The same schedule with a release in two steps (cas
     * to a marker, then delete, what release() did before) deletes the next owner's lock, which is why
     * release() must be one step.
     */
    public function testExpiryBetweenCheckAndDeleteKeepsTheNextOwnersLock(): void
    {
        $store = new TableStore('lk');

        // Two steps, forced apart by the expiry: the second one deletes b's lock.
        $a = $store->lock('job', 1);
        $this->assertTrue($a->acquire());
        $this->assertTrue(Table::cas('job', $a->owner(), "\0released\0" . $a->owner(), 'lk:locks'));
        $this->waitUntilExpired('job');
        $b = $store->lock('job', 60);
        $this->assertTrue($b->acquire());
        Table::delete('job', 'lk:locks');
        $this->assertFalse(Table::exists('job', 'lk:locks'), 'two steps: the next owner\'s lock was deleted');

        // release(): checked and deleted in one step, so b's lock survives a's late release.
        $a = $store->lock('job', 1);
        $this->assertTrue($a->acquire());
        $this->assertSame($a->owner(), Table::get('job', 'lk:locks'));   // the check, before the TTL runs out
        $this->waitUntilExpired('job');
        $b = $store->lock('job', 60);
        $this->assertTrue($b->acquire());
        $this->assertFalse($a->release(), 'a no longer owns the lock');
        $this->assertSame($b->owner(), Table::get('job', 'lk:locks'), 'the next owner\'s lock survives');
        $this->assertTrue($b->release());
        $this->assertFalse(Table::exists('job', 'lk:locks'));
    }

    /** release() is a single table write: no marker is ever stored, only the owner's entry deleted. */
    public function testReleaseIsOneStep(): void
    {
        $lock = (new TableStore('lk'))->lock('one', 60);
        $this->assertTrue($lock->acquire());
        $before = Table::stats();
        $this->assertTrue($lock->release());
        $after = Table::stats();
        $this->assertSame(0, $after['sets'] - $before['sets'], 'release() stores nothing (no marker)');
        $this->assertSame(1, $after['deletes'] - $before['deletes']);
        $this->assertFalse($lock->release(), 'a second release finds nothing');
    }

    private function waitUntilExpired(string $key): void
    {
        $deadline = microtime(true) + 30;
        while (Table::exists($key, 'lk:locks')) {
            if (microtime(true) > $deadline) {
                $this->fail("$key did not expire");
            }
            usleep(20000);
        }
    }
}
