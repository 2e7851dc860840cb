<?php

declare(strict_types=1);

namespace Shm\Cache;

use Psr\Cache\CacheItemInterface;
use Psr\Cache\CacheItemPoolInterface;
use Shm\Cache\Internal\Args;
use Shm\Cache\Internal\Store;

/**
 * PSR-6 over one Shm\Table namespace: every worker of the host shares it.
 *
 * Deferred items stay in this object (visible to its own getItem/hasItem) until commit(), which stores
 * them with one setMany() per distinct TTL, or until the pool is destroyed. clear() empties the namespace
 * and drops the deferred items. An expiry in the past deletes the key. Errors of the table itself are a
 * Shm\Cache\CacheException.
 *
 * The signatures leave parameters untyped (except where psr/cache 1 already typed them) and declare psr/cache
 * v3's return types, which satisfies psr/cache 1, 2 and 3 alike.
 */
final class CacheItemPool implements CacheItemPoolInterface
{
    private Store $store;
    private int $defaultTtl;
    /** @var array<string, array{0: mixed, 1: ?int}> key => [value, absolute expiry or null] */
    private array $deferred = [];

    public function __construct(string $namespace = 'cache', int $defaultTtl = 0)
    {
        $this->store = new Store(Args::ns($namespace));
        $this->defaultTtl = Args::defaultTtl($defaultTtl);
    }

    public function __destruct()
    {
        if ($this->deferred !== []) {
            try {
                $this->commit();
            } catch (\Throwable) {
                // A destructor must not throw; what could not be stored is simply not cached.
            }
        }
    }

    public function getItem($key): CacheItemInterface
    {
        Args::key($key);
        if (isset($this->deferred[$key]) || \array_key_exists($key, $this->deferred)) {
            return $this->deferredItem($key);
        }
        $value = $this->store->get($key, $this);   // $this: a miss, never a stored value
        return $value === $this ? new CacheItem($key) : new CacheItem($key, $value, true);
    }

    public function getItems(array $keys = []): iterable
    {
        $keys = Args::keys($keys);
        $items = $fetch = [];
        foreach ($keys as $key) {
            if (!\array_key_exists($key, $this->deferred)) {
                $fetch[] = $key;
            }
        }
        $hits = $this->store->getMany($fetch);
        foreach ($keys as $key) {
            if (\array_key_exists($key, $this->deferred)) {
                $items[$key] = $this->deferredItem($key);
            } elseif (\array_key_exists($key, $hits)) {
                $items[$key] = new CacheItem($key, $hits[$key], true);
            } else {
                $items[$key] = new CacheItem($key);
            }
        }
        return $items;
    }

    public function hasItem($key): bool
    {
        Args::key($key);
        if (\array_key_exists($key, $this->deferred)) {
            return $this->deferredItem($key)->isHit();
        }
        return $this->store->has($key);
    }

    public function clear(): bool
    {
        $this->deferred = [];
        return $this->store->clear();
    }

    public function deleteItem($key): bool
    {
        Args::key($key);
        unset($this->deferred[$key]);
        $this->store->delete($key);
        return true;
    }

    public function deleteItems(array $keys): bool
    {
        $keys = Args::keys($keys);
        foreach ($keys as $key) {
            unset($this->deferred[$key]);
        }
        $this->store->deleteMany($keys);
        return true;
    }

    public function save(CacheItemInterface $item): bool
    {
        $item = $this->own($item);
        $key = $item->getKey();
        unset($this->deferred[$key]);
        return $this->store->set($key, $item->get(), Args::expiry($item->expiry(), $this->defaultTtl));
    }

    public function saveDeferred(CacheItemInterface $item): bool
    {
        $item = $this->own($item);
        // A snapshot: changing the item afterwards does not change what commit() stores.
        $value = $item->get();
        $this->deferred[$item->getKey()] = [\is_object($value) ? clone $value : $value, $item->expiry()];
        return true;
    }

    public function commit(): bool
    {
        $groups = $expired = [];
        foreach ($this->deferred as $key => [$value, $expiry]) {
            $expire = Args::expiry($expiry, $this->defaultTtl);
            if ($expire === Args::EXPIRED) {
                $expired[] = (string) $key;
            } else {
                $groups[$expire][$key] = $value;
            }
        }
        $this->deferred = [];
        $ok = true;
        $this->store->deleteMany($expired);
        foreach ($groups as $expire => $batch) {
            $ok = $this->store->setMany($batch, $expire) && $ok;
        }
        return $ok;
    }

    private function deferredItem(string $key): CacheItem
    {
        [$value, $expiry] = $this->deferred[$key];
        if ($expiry !== null && $expiry <= time()) {
            return new CacheItem($key);
        }
        $item = new CacheItem($key, \is_object($value) ? clone $value : $value, true);
        if ($expiry !== null) {
            $item->expiresAt(new \DateTimeImmutable('@' . $expiry));
        }
        return $item;
    }

    private function own(CacheItemInterface $item): CacheItem
    {
        if (!$item instanceof CacheItem) {
            throw new InvalidArgumentException(sprintf('%s saves only its own items (from getItem()), %s given', self::class, get_debug_type($item)));
        }
        return $item;
    }
}
