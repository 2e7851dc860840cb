<?php

declare(strict_types=1);

namespace Shm\Cache;

use Shm\TableException;

/**
 * The table itself failed: disabled (table.enabled=0), unavailable (a bad INI value), or an error the
 * extension reports as Shm\TableException. The original exception is the previous one.
 */
final class CacheException extends \RuntimeException implements
    \Psr\SimpleCache\CacheException,
    \Psr\Cache\CacheException
{
    /** @internal */
    public static function from(TableException $e): self
    {
        return new self($e->getMessage(), (int) $e->getCode(), $e);
    }
}
