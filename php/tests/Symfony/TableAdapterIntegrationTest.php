<?php

declare(strict_types=1);

namespace Shm\Cache\Tests\Symfony;

use Cache\IntegrationTests\CachePoolTest;
use Shm\Cache\Symfony\TableAdapter;

/** php-cache/integration-tests' PSR-6 conformance suite against the Symfony adapter. */
final class TableAdapterIntegrationTest extends CachePoolTest
{
    public function createCachePool()
    {
        return new TableAdapter('sf-conformance');
    }
}
