<?php

declare(strict_types=1);

namespace Shm\Cache\Tests\Laravel;

use PHPUnit\Framework\TestCase;
use Shm\Cache\Laravel\TableLock;
use Shm\Cache\Laravel\TableStore;
use Shm\Table;

/** TableLock::release() never frees a lock someone else holds, whenever the owner's TTL runs out. */
final class TableLockTest extends TestCase
{
    protected function setUp(): void
    {
        Table::clear('lk:locks');
    }

    /**
     * Owner a's TTL runs out at each moment of a's release() in turn: before its first table call, between
     * any two of them, after its last. The expiry is forced at that moment (the test deletes the key, as
     * the table does when a TTL ends) and owner b then acquires the lock. Whatever the moment, b's lock
     * survives a's release(); release() says false when the lock expired before it began, and true when
     * the lock expired only after it ended.
     *
     * release() is one call (Shm\Table::deleteIf()), so there are two moments: before it (release() finds
     * b's token and says false) and after it. The release in two steps that TableLock once had (cas() of
     * the owner token to a marker, then delete()) has a third, between the two, and fails there: the
     * delete() removes b's lock. (TableStoreTest::testLockTtlAndBlock has the same race with a real TTL,
     * at the one moment a clock can hit: before the release.)
     */
    public function testAnExpiryAtAnyMomentOfReleaseKeepsTheNextOwnersLock(): void
    {
        // A release with nothing in the way: which table calls it makes.
        $a = self::lock();
        $this->assertTrue($a->acquire());
        $a->calls = [];
        $this->assertTrue($a->release());
        $this->assertFalse(Table::exists('job', 'lk:locks'));
        $calls = $a->calls;
        $this->assertNotSame([], $calls, 'release() reaches the table through TableLock::table()');

        for ($at = 0; $at <= \count($calls); $at++) {
            $when = $at < \count($calls) ? "before $calls[$at]()" : 'after ' . end($calls) . '()';
            Table::clear('lk:locks');
            $b = (new TableStore('lk'))->lock('job', 60);
            $a = self::lock();
            $this->assertTrue($a->acquire());
            $a->calls = [];
            $expired = false;
            $expire = function () use ($b, $when, &$expired): void {
                Table::delete('job', 'lk:locks');   // a's TTL runs out
                $this->assertTrue($b->acquire(), "expiry $when: b acquires the lock");
                $expired = true;
            };
            $a->before = static function (int $call) use ($at, $expire): void {
                if ($call === $at) {
                    $expire();
                }
            };
            $released = $a->release();
            $a->before = null;
            if (!$expired) {
                $expire();
            }
            $this->assertSame($b->owner(), Table::get('job', 'lk:locks'), "expiry $when: b's lock survives a's release()");
            if ($at === 0) {
                $this->assertFalse($released, "expiry $when: release() finds nothing of a's to free");
            } elseif ($at === \count($calls)) {
                $this->assertTrue($released, "expiry $when: release() freed a's own lock");
            }
            $this->assertTrue($b->release());
        }
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

    /**
     * A lock on "job" in TableStore('lk')'s lock namespace whose table calls are recorded in $calls, with
     * $before (given the call's index) run before each: a decorator of TableLock::table().
     */
    private static function lock(): TableLock
    {
        return new class ('lk:locks', 'job', 60) extends TableLock {
            /** @var list<string> */
            public array $calls = [];
            public ?\Closure $before = null;

            protected function table(string $method, mixed ...$args): mixed
            {
                if ($this->before !== null) {
                    ($this->before)(\count($this->calls));
                }
                $this->calls[] = $method;
                return parent::table($method, ...$args);
            }
        };
    }
}
