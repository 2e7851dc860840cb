<?php

declare(strict_types=1);

namespace Shm\Cache\Internal;

use Shm\Cache\InvalidArgumentException;

/**
 * Argument checks shared by the PSR adapters. They always run (they are not assert()s): a bad key is an
 * InvalidArgumentException before Shm\Table sees it.
 *
 * Keys follow PSR-6/PSR-16: a non-empty string without any of {}()/\@: . The adapters may use those
 * reserved characters for keys of their own, which therefore never collide with a user's key. Shm\Table
 * takes keys of up to 65,535 bytes, and so do the adapters.
 *
 * @internal
 */
final class Args
{
    public const RESERVED = '{}()/\\@:';
    public const MAX_KEY = 65535;
    /** Shm\Table's largest $expire. */
    public const MAX_TTL = 2147483647;
    /** What ttl() returns for a TTL that has already passed: the entry is to be deleted. */
    public const EXPIRED = -1;

    /** @param mixed $key */
    public static function key($key): string
    {
        if (!\is_string($key)) {
            throw new InvalidArgumentException(sprintf('Cache key must be a string, %s given', get_debug_type($key)));
        }
        if ($key === '' || \strlen($key) > self::MAX_KEY || strpbrk($key, self::RESERVED) !== false) {
            throw new InvalidArgumentException(sprintf(
                'Cache key "%s" is invalid: it must be 1 to %d bytes, without any of %s',
                \strlen($key) > 80 ? substr($key, 0, 80) . '...' : $key,
                self::MAX_KEY,
                self::RESERVED
            ));
        }
        return $key;
    }

    /**
     * A key taken from an array key or a generator's key: integers are the decimal strings PHP made them.
     *
     * @param mixed $key
     */
    public static function arrayKey($key): string
    {
        return self::key(\is_int($key) ? (string) $key : $key);
    }

    /**
     * Validated keys of an iterable (getMultiple/deleteMultiple).
     *
     * @param mixed $keys
     * @return list<string>
     */
    public static function keys($keys): array
    {
        if (!is_iterable($keys)) {
            throw new InvalidArgumentException(sprintf('Cache keys must be an array or a Traversable, %s given', get_debug_type($keys)));
        }
        $out = [];
        foreach ($keys as $key) {
            $out[] = self::key($key);
        }
        return $out;
    }

    /**
     * PSR-16's TTL as Shm\Table's $expire: 0 = never, self::EXPIRED = already expired (delete), otherwise
     * seconds (capped at self::MAX_TTL). null takes $default (0 = never).
     *
     * @param mixed $ttl null, int or \DateInterval
     */
    public static function ttl($ttl, int $default): int
    {
        if ($ttl === null) {
            return $default;
        }
        if (\is_int($ttl)) {
            $seconds = $ttl;
        } elseif ($ttl instanceof \DateInterval) {
            $now = new \DateTimeImmutable('@' . time());
            $seconds = $now->add($ttl)->getTimestamp() - $now->getTimestamp();
        } else {
            throw new InvalidArgumentException(sprintf('Cache TTL must be null, an int or a DateInterval, %s given', get_debug_type($ttl)));
        }
        if ($seconds <= 0) {
            return self::EXPIRED;
        }
        return min($seconds, self::MAX_TTL);
    }

    /** An absolute expiry (Unix time, null = $default seconds from now, 0 = never) as $expire. */
    public static function expiry(?int $at, int $default): int
    {
        if ($at === null) {
            return $default;
        }
        $seconds = $at - time();
        return $seconds <= 0 ? self::EXPIRED : min($seconds, self::MAX_TTL);
    }

    public static function ns(string $namespace): string
    {
        if ($namespace === '' || \strlen($namespace) > 255) {
            throw new InvalidArgumentException('Cache namespace must be 1 to 255 bytes');
        }
        return $namespace;
    }

    public static function defaultTtl(int $ttl): int
    {
        if ($ttl < 0) {
            throw new InvalidArgumentException('Default TTL must be 0 (never expire) or more seconds');
        }
        return min($ttl, self::MAX_TTL);
    }
}
