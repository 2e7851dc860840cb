<?php

declare(strict_types=1);

namespace Shm\Cache;

/**
 * A key, a TTL or an expiry that the PSR contracts reject. Implements both PSR-6's and PSR-16's
 * InvalidArgumentException (and so their CacheException) so that one class serves every adapter.
 */
final class InvalidArgumentException extends \InvalidArgumentException implements
    \Psr\SimpleCache\InvalidArgumentException,
    \Psr\Cache\InvalidArgumentException
{
}
