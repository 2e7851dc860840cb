<?php

declare(strict_types=1);

namespace Shm\Cache\Tests;

use Cache\IntegrationTests\SimpleCacheTest;
use Shm\Cache\SimpleCache;

/** php-cache/integration-tests' PSR-16 conformance suite against Shm\Cache\SimpleCache. */
final class SimpleCacheIntegrationTest extends SimpleCacheTest
{
    public function createSimpleCache()
    {
        return new SimpleCache('psr16-conformance');
    }
}
