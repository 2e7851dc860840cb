<?php

declare(strict_types=1);

namespace Shm\Cache\Tests;

use Cache\IntegrationTests\CachePoolTest;
use Shm\Cache\CacheItemPool;

/** php-cache/integration-tests' PSR-6 conformance suite against Shm\Cache\CacheItemPool. */
final class CacheItemPoolIntegrationTest extends CachePoolTest
{
    public function createCachePool()
    {
        return new CacheItemPool('psr6-conformance');
    }
}
