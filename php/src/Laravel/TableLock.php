<?php

declare(strict_types=1);

namespace Shm\Cache\Laravel;

use Illuminate\Cache\Lock;
use Shm\Table;

/**
 * A Laravel atomic lock held in Shm\Table, shared by every worker of the host.
 *
 * acquire() is Shm\Table::add() of the owner token with the lock's TTL (0: until released). release()
 * is Shm\Table::deleteIf() of the owner token: the comparison and the delete are one step under the
 * table's lock, so release() never frees a lock another owner holds, even when this owner's TTL ran out
 * and someone else acquired the lock just before the release.
 *
 * Every table call goes through table(), the one seam for tests (see there).
 */
class TableLock extends Lock
{
    private string $namespace;

    public function __construct(string $namespace, $name, $seconds, $owner = null)
    {
        parent::__construct($name, $seconds, $owner);
        $this->namespace = $namespace;
    }

    public function acquire()
    {
        return $this->table('add', $this->name, $this->owner, $this->seconds > 0 ? $this->seconds : null, $this->namespace);
    }

    public function release()
    {
        return $this->table('deleteIf', $this->name, $this->owner, $this->namespace);
    }

    public function forceRelease()
    {
        $this->table('delete', $this->name, $this->namespace);
    }

    protected function getCurrentOwner()
    {
        return $this->table('get', $this->name, $this->namespace);
    }

    /**
     * Shm\Table::$method(...$args), and nothing more: every call this lock makes to the table. A test
     * overrides it to run code between those calls (a TTL running out, another owner acquiring) and so
     * proves that no such moment inside release() frees a lock someone else holds
     * (php/tests/Laravel/TableLockTest.php). Not an extension point otherwise.
     *
     * @internal
     */
    protected function table(string $method, mixed ...$args): mixed
    {
        return Table::$method(...$args);
    }
}
