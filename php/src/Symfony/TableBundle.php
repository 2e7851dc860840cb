<?php

declare(strict_types=1);

namespace Shm\Cache\Symfony;

use Symfony\Component\DependencyInjection\ContainerBuilder;
use Symfony\Component\DependencyInjection\ContainerInterface;
use Symfony\Component\DependencyInjection\Parameter;
use Symfony\Component\DependencyInjection\Reference;
use Symfony\Component\HttpKernel\Bundle\Bundle;

/**
 * Registers `cache.adapter.table`, an abstract adapter service defined as FrameworkBundle defines
 * `cache.adapter.apcu`, so that `framework.cache` pools can name it:
 *
 *     framework:
 *         cache:
 *             app: cache.adapter.table
 *             pools:
 *                 my.pool: { adapter: cache.adapter.table, default_lifetime: 600 }
 *
 * Each pool gets the namespace FrameworkBundle derives from the pool's name and the project (its own
 * Shm\Table namespace, so cache:pool:clear of one pool leaves the others) and the container's build id as
 * version (a new deploy starts with an empty pool, as with APCu).
 */
class TableBundle extends Bundle
{
    public const ADAPTER_SERVICE = 'cache.adapter.table';

    public function build(ContainerBuilder $container): void
    {
        parent::build($container);
        $container->register(self::ADAPTER_SERVICE, TableAdapter::class)
            ->setAbstract(true)
            ->setArguments([
                '',                        // namespace: set per pool by CachePoolPass
                0,                         // default lifetime: the pool's default_lifetime
                // version: set when the container is dumped, as FrameworkBundle does for cache.adapter.apcu
                new Parameter('container.build_id'),
            ])
            ->addMethodCall('setLogger', [new Reference('logger', ContainerInterface::IGNORE_ON_INVALID_REFERENCE)])
            ->addTag('cache.pool', ['clearer' => 'cache.default_clearer', 'reset' => 'reset'])
            ->addTag('monolog.logger', ['channel' => 'cache']);
    }
}
