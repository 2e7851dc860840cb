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
        return Table::add($this->name, $this->owner, $this->seconds > 0 ? $this->seconds : null, $this->namespace);
    }

    public function release()
    {
        return Table::deleteIf($this->name, $this->owner, $this->namespace);
    }

    public function forceRelease()
    {
        Table::delete($this->name, $this->namespace);
    }

    protected function getCurrentOwner()
    {
        return Table::get($this->name, $this->namespace);
    }
}
