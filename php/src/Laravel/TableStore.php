<?php

declare(strict_types=1);

namespace Shm\Cache\Laravel;

use Illuminate\Cache\TaggableStore;
use Illuminate\Contracts\Cache\Lock;
use Illuminate\Contracts\Cache\LockProvider;
use Shm\Table;
use Shm\TableException;

/**
 * A Laravel cache store over one Shm\Table namespace (the `table` driver of TableServiceProvider).
 *
 * put() with 0 seconds or fewer stores for ever, as Laravel's ApcStore and ArrayStore do (Repository
 * deletes instead before it gets here). add() is Shm\Table::add(), atomic across workers, which
 * Repository::add() uses. increment()/decrement() are exact and atomic; on a value that is not an
 * integer they return false. flush() clears this store's namespace only.
 *
 * The store's Shm\Table namespace is $prefix followed by $namespace. The prefix is Laravel's cache prefix
 * (the store's `prefix`, else `cache.prefix`, as for the `apc` driver) and getPrefix() returns it; keys
 * are stored as given, in that namespace. So two applications with different prefixes never share a
 * key, and flush() (`cache:clear`) of one leaves the other's entries, where ApcStore::flush() empties
 * all of APCu.
 *
 * Tags: TaggableStore's tags(), Laravel's TagSet and TaggedCache over this store, as with the `apc` driver.
 *
 * Locks live in a namespace of their own ("<namespace>:locks"), so flush() does not release them: see
 * TableLock.
 */
class TableStore extends TaggableStore implements LockProvider
{
    private string $namespace;
    private string $lockNamespace;
    private string $prefix;

    public function __construct(string $namespace = 'laravel', string $prefix = '')
    {
        $full = $prefix . $namespace;
        if ($full === '' || \strlen($full) > 249) {
            throw new \InvalidArgumentException('The table cache namespace (prefix and namespace) must be 1 to 249 bytes');
        }
        $this->prefix = $prefix;
        $this->namespace = $full;
        $this->lockNamespace = $full . ':locks';
    }

    public function get($key)
    {
        return Table::get((string) $key, $this->namespace);
    }

    public function many(array $keys)
    {
        $keys = array_map('strval', $keys);
        $hits = $keys === [] ? [] : Table::getMany($keys, $this->namespace);
        $out = [];
        foreach ($keys as $key) {
            $out[$key] = $hits[$key] ?? null;
        }
        return $out;
    }

    public function put($key, $value, $seconds)
    {
        return Table::set((string) $key, $value, self::expire($seconds), $this->namespace);
    }

    public function putMany(array $values, $seconds)
    {
        if ($values === [] || Table::setMany($values, self::expire($seconds), $this->namespace, $failed)) {
            return true;
        }
        // Keys not stored (no room under noeviction) would keep their previous values: drop those.
        Table::deleteMany(array_map('strval', $failed), $this->namespace);
        return false;
    }

    /** Store only if absent, atomically across all workers (Repository::add() calls this). */
    public function add($key, $value, $seconds)
    {
        return Table::add((string) $key, $value, self::expire($seconds), $this->namespace);
    }

    public function increment($key, $value = 1)
    {
        try {
            return Table::increment((string) $key, (int) $value, null, $this->namespace);
        } catch (TableException) {
            return false;   // not an integer, or an overflow
        }
    }

    public function decrement($key, $value = 1)
    {
        try {
            return Table::decrement((string) $key, (int) $value, null, $this->namespace);
        } catch (TableException) {
            return false;
        }
    }

    public function forever($key, $value)
    {
        return Table::set((string) $key, $value, null, $this->namespace);
    }

    public function forget($key)
    {
        return Table::delete((string) $key, $this->namespace);
    }

    public function flush()
    {
        return Table::clear($this->namespace);
    }

    /** Laravel's cache prefix of this store; it is the start of getNamespace(), not of the keys. */
    public function getPrefix()
    {
        return $this->prefix;
    }

    /** The Shm\Table namespace of this store: the prefix followed by the namespace given. */
    public function getNamespace(): string
    {
        return $this->namespace;
    }

    public function lock($name, $seconds = 0, $owner = null): Lock
    {
        return new TableLock($this->lockNamespace, (string) $name, (int) $seconds, $owner);
    }

    public function restoreLock($name, $owner): Lock
    {
        return $this->lock($name, 0, $owner);
    }

    private static function expire($seconds): ?int
    {
        $seconds = (int) $seconds;
        return $seconds > 0 ? min($seconds, 2147483647) : null;
    }
}
