<?php

declare(strict_types=1);

namespace Shm\Cache;

use Psr\Cache\CacheItemInterface;

/**
 * A PSR-6 item of CacheItemPool. Items come from CacheItemPool::getItem()/getItems(); the expiry is kept
 * as an absolute Unix time (null: the pool's default TTL).
 */
final class CacheItem implements CacheItemInterface
{
    private string $key;
    private mixed $value;
    private bool $hit;
    private ?int $expiry = null;

    /** @internal use CacheItemPool::getItem() */
    public function __construct(string $key, mixed $value = null, bool $hit = false)
    {
        $this->key = $key;
        $this->value = $value;
        $this->hit = $hit;
    }

    public function getKey(): string
    {
        return $this->key;
    }

    public function get(): mixed
    {
        return $this->value;
    }

    public function isHit(): bool
    {
        return $this->hit;
    }

    public function set($value): static
    {
        $this->value = $value;
        return $this;
    }

    public function expiresAt($expiration): static
    {
        if ($expiration === null) {
            $this->expiry = null;
        } elseif ($expiration instanceof \DateTimeInterface) {
            $this->expiry = $expiration->getTimestamp();
        } else {
            throw new InvalidArgumentException(sprintf('Expiration must be null or a DateTimeInterface, %s given', get_debug_type($expiration)));
        }
        return $this;
    }

    public function expiresAfter($time): static
    {
        if ($time === null) {
            $this->expiry = null;
        } elseif (\is_int($time)) {
            $now = time();
            // Saturate instead of overflowing to a float: the pool caps TTLs at Shm\Table's maximum anyway.
            $this->expiry = $time > PHP_INT_MAX - $now ? PHP_INT_MAX : $now + $time;
        } elseif ($time instanceof \DateInterval) {
            $this->expiry = (new \DateTimeImmutable('@' . time()))->add($time)->getTimestamp();
        } else {
            throw new InvalidArgumentException(sprintf('Expiration must be null, an int or a DateInterval, %s given', get_debug_type($time)));
        }
        return $this;
    }

    /** @internal the absolute expiry, null for the pool's default */
    public function expiry(): ?int
    {
        return $this->expiry;
    }
}
