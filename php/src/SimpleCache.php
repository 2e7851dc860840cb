<?php

declare(strict_types=1);

namespace Shm\Cache;

use Psr\SimpleCache\CacheInterface;
use Shm\Cache\Internal\Args;
use Shm\Table;
use Shm\TableException;

/**
 * PSR-16 over one Shm\Table namespace: every worker of the host shares it.
 *
 * clear() empties that namespace only. A TTL of null takes the default TTL given to the constructor
 * (0: never expire); zero, a negative int or a DateInterval that is not in the future delete the key, as
 * PSR-16 says. Batches map to getMany/setMany/deleteMany (one call each). Stored null is told apart from a
 * miss. Errors of the table itself (disabled, unavailable) are a Shm\Cache\CacheException.
 *
 * The signatures leave parameters untyped and declare PSR-16 v3's return types, which satisfies
 * psr/simple-cache 1, 2 and 3 alike; the checks the types would do run in code instead.
 */
final class SimpleCache implements CacheInterface
{
    private string $namespace;
    private int $defaultTtl;

    public function __construct(string $namespace = 'cache', int $defaultTtl = 0)
    {
        $this->namespace = Args::ns($namespace);
        $this->defaultTtl = Args::defaultTtl($defaultTtl);
    }

    public function get($key, $default = null): mixed
    {
        Args::key($key);
        try {
            $value = Table::get($key, $this->namespace);
            if ($value !== null || $default === null) {
                return $value;
            }
            // null is a miss or a stored null: getMany() lists hits only.
            $hit = Table::getMany([$key], $this->namespace);
        } catch (TableException $e) {
            throw CacheException::from($e);
        }
        return $hit === [] ? $default : reset($hit);
    }

    public function set($key, $value, $ttl = null): bool
    {
        Args::key($key);
        $expire = Args::ttl($ttl, $this->defaultTtl);
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

    public function delete($key): bool
    {
        Args::key($key);
        try {
            Table::delete($key, $this->namespace);
        } catch (TableException $e) {
            throw CacheException::from($e);
        }
        return true;
    }

    public function clear(): bool
    {
        try {
            return Table::clear($this->namespace);
        } catch (TableException $e) {
            throw CacheException::from($e);
        }
    }

    public function getMultiple($keys, $default = null): iterable
    {
        $keys = Args::keys($keys);
        try {
            $hits = $keys === [] ? [] : Table::getMany($keys, $this->namespace);
        } catch (TableException $e) {
            throw CacheException::from($e);
        }
        $out = [];
        foreach ($keys as $key) {
            $out[$key] = \array_key_exists($key, $hits) ? $hits[$key] : $default;
        }
        return $out;
    }

    public function setMultiple($values, $ttl = null): bool
    {
        if (!is_iterable($values)) {
            throw new InvalidArgumentException(sprintf('Cache values must be an array or a Traversable, %s given', get_debug_type($values)));
        }
        $batch = [];
        foreach ($values as $key => $value) {
            $batch[Args::arrayKey($key)] = $value;
        }
        $expire = Args::ttl($ttl, $this->defaultTtl);
        if ($batch === []) {
            return true;
        }
        try {
            if ($expire === Args::EXPIRED) {
                Table::deleteMany(array_map('strval', array_keys($batch)), $this->namespace);
                return true;
            }
            return Table::setMany($batch, $expire, $this->namespace);
        } catch (TableException $e) {
            throw CacheException::from($e);
        }
    }

    public function deleteMultiple($keys): bool
    {
        $keys = Args::keys($keys);
        try {
            if ($keys !== []) {
                Table::deleteMany($keys, $this->namespace);
            }
        } catch (TableException $e) {
            throw CacheException::from($e);
        }
        return true;
    }

    public function has($key): bool
    {
        Args::key($key);
        try {
            return Table::exists($key, $this->namespace);
        } catch (TableException $e) {
            throw CacheException::from($e);
        }
    }
}
