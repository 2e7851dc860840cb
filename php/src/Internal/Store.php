<?php

declare(strict_types=1);

namespace Shm\Cache\Internal;

use Shm\Cache\CacheException;
use Shm\Table;
use Shm\TableException;

/**
 * One Shm\Table namespace as the PSR adapters use it: every call in that namespace, a failure of the
 * table itself turned into a Shm\Cache\CacheException, an Args::EXPIRED expiry turned into a delete, and
 * empty batches never sent.
 *
 * @internal
 */
final class Store
{
    public function __construct(private readonly string $namespace)
    {
    }

    /** The stored value, or $miss when there is none; a stored null is told apart from a miss. */
    public function get(string $key, mixed $miss = null): mixed
    {
        try {
            $value = Table::get($key, $this->namespace);
            if ($value !== null || $miss === null) {
                return $value;
            }
            // null is a miss or a stored null: getMany() lists hits only.
            $hit = Table::getMany([$key], $this->namespace);
        } catch (TableException $e) {
            throw CacheException::from($e);
        }
        return $hit === [] ? $miss : null;
    }

    /** @param list<string> $keys @return array<string, mixed> the hits only */
    public function getMany(array $keys): array
    {
        try {
            return $keys === [] ? [] : Table::getMany($keys, $this->namespace);
        } catch (TableException $e) {
            throw CacheException::from($e);
        }
    }

    public function has(string $key): bool
    {
        try {
            return Table::exists($key, $this->namespace);
        } catch (TableException $e) {
            throw CacheException::from($e);
        }
    }

    /** Store $value until $expire (Args::ttl()/expiry(): 0 never, Args::EXPIRED deletes the key). */
    public function set(string $key, mixed $value, int $expire): bool
    {
        try {
            if ($expire === Args::EXPIRED) {
                Table::delete($key, $this->namespace);
                return true;
            }
            return Table::set($key, $value, $expire, $this->namespace);
        } catch (TableException $e) {
            throw CacheException::from($e);
        }
    }

    /**
     * @param array<array-key, mixed> $batch key => value, stored as set() would each
     * @param list<array-key>|null $failed receives the keys that were not stored (a full noeviction table)
     */
    public function setMany(array $batch, int $expire, ?array &$failed = null): bool
    {
        $failed = [];
        if ($batch === []) {
            return true;
        }
        if ($expire === Args::EXPIRED) {
            $this->deleteMany(array_map('strval', array_keys($batch)));
            return true;
        }
        try {
            return Table::setMany($batch, $expire, $this->namespace, $failed);
        } catch (TableException $e) {
            throw CacheException::from($e);
        }
    }

    public function delete(string $key): void
    {
        try {
            Table::delete($key, $this->namespace);
        } catch (TableException $e) {
            throw CacheException::from($e);
        }
    }

    /** @param list<string> $keys */
    public function deleteMany(array $keys): void
    {
        try {
            if ($keys !== []) {
                Table::deleteMany($keys, $this->namespace);
            }
        } catch (TableException $e) {
            throw CacheException::from($e);
        }
    }

    public function clear(): bool
    {
        try {
            return Table::clear($this->namespace);
        } catch (TableException $e) {
            throw CacheException::from($e);
        }
    }
}
