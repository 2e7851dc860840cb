<?php

declare(strict_types=1);

namespace Shm\Cache\Tests\Support;

use Shm\Cache\Symfony\TableBundle;
use Symfony\Bundle\FrameworkBundle\FrameworkBundle;
use Symfony\Component\Config\Loader\LoaderInterface;
use Symfony\Component\DependencyInjection\ContainerBuilder;
use Symfony\Component\HttpKernel\Kernel;

/** The smallest FrameworkBundle application: FrameworkBundle, TableBundle and a `framework.cache` config. */
final class SymfonyKernel extends Kernel
{
    /** @param array<string, mixed> $cache framework.cache */
    public function __construct(private string $dir, private array $cache)
    {
        parent::__construct('test', false);
    }

    public function registerBundles(): iterable
    {
        yield new FrameworkBundle();
        yield new TableBundle();
    }

    public function registerContainerConfiguration(LoaderInterface $loader): void
    {
        $loader->load(function (ContainerBuilder $container): void {
            $container->loadFromExtension('framework', [
                'secret' => 'test',
                'test' => true,
                'cache' => $this->cache,
            ]);
        });
    }

    public function getProjectDir(): string
    {
        return $this->dir;
    }

    public function getCacheDir(): string
    {
        return $this->dir . '/var/cache';
    }

    public function getLogDir(): string
    {
        return $this->dir . '/var/log';
    }
}
