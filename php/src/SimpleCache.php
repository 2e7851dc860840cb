<?php

declare(strict_types=1);

namespace Shm\Cache;

use Psr\SimpleCache\CacheInterface;
use Shm\Cache\Internal\Args;
use Shm\Cache\Internal\Store;

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
    private Store $store;
    private int $defaultTtl;

    public function __construct(string $namespace = 'cache', int $defaultTtl = 0)
    {
        $this->store = new Store(Args::ns($namespace));
        $this->defaultTtl = Args::defaultTtl($defaultTtl);
    }

    public function get($key, $default = null): mixed
    {
        Args::key($key);
        return $this->store->get($key, $default);
    }

    public function set($key, $value, $ttl = null): bool
    {
        Args::key($key);
        return $this->store->set($key, $value, Args::ttl($ttl, $this->defaultTtl));
    }

    public function delete($key): bool
    {
        Args::key($key);
        $this->store->delete($key);
        return true;
    }

    public function clear(): bool
    {
        return $this->store->clear();
    }

    public function getMultiple($keys, $default = null): iterable
    {
        $keys = Args::keys($keys);
        $hits = $this->store->getMany($keys);
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
        if ($this->store->setMany($batch, Args::ttl($ttl, $this->defaultTtl), $failed)) {
            return true;
        }
        // A key that was not stored (no room under noeviction) keeps its previous value: drop it, so that
        // a false answer never leaves older values readable under keys the caller just tried to replace.
        $this->store->deleteMany(array_map('strval', $failed));
        return false;
    }

    public function deleteMultiple($keys): bool
    {
        $this->store->deleteMany(Args::keys($keys));
        return true;
    }

    public function has($key): bool
    {
        Args::key($key);
        return $this->store->has($key);
    }
}
