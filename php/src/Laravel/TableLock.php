<?php

declare(strict_types=1);

namespace Shm\Cache\Laravel;

use Illuminate\Cache\Lock;
use Shm\Table;

/**
 * A Laravel atomic lock held in Shm\Table, shared by every worker of the host.
 *
 * acquire() is Shm\Table::add() of the owner token with the lock's TTL (0: until released). release()
 * first swaps the owner token for a release marker with cas(), which only the owner's token matches, and
 * then deletes the marker. Nobody can acquire the lock between the two steps (the key still exists), so
 * release() never frees a lock another owner holds; the one exception is a lock whose TTL runs out
 * exactly between the two steps of its owner's release() and that someone else acquires in that instant.
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
        $marker = "\0released\0" . $this->owner;
        if (!Table::cas($this->name, $this->owner, $marker, $this->namespace)) {
            return false;
        }
        Table::delete($this->name, $this->namespace);
        return true;
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
