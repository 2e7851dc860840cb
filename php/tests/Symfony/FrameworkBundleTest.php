<?php

declare(strict_types=1);

namespace Shm\Cache\Tests\Symfony;

use PHPUnit\Framework\TestCase;
use Shm\Cache\Symfony\TableAdapter;
use Shm\Cache\Tests\Support\KeyOutcomes;
use Shm\Cache\Tests\Support\Seconds;
use Shm\Cache\Tests\Support\SymfonyKernel;
use Shm\Table;
use Symfony\Bundle\FrameworkBundle\FrameworkBundle;
use Symfony\Component\Cache\Adapter\ApcuAdapter;
use Symfony\Contracts\Cache\ItemInterface;

/**
 * A FrameworkBundle application (Debian's php-symfony-framework-bundle) whose `framework.cache` pools use
 * `cache.adapter.table` from TableBundle, next to a pool on `cache.adapter.apcu`: the config README shows.
 */
final class FrameworkBundleTest extends TestCase
{
    /** framework.cache as README shows it, plus an APCu pool to compare with. */
    private const CACHE = [
        'app' => 'cache.adapter.table',
        'pools' => [
            'my.pool' => ['adapter' => 'cache.adapter.table', 'default_lifetime' => 600, 'public' => true],
            'apcu.pool' => ['adapter' => 'cache.adapter.apcu', 'public' => true],
        ],
    ];

    private string $dir;
    /** @var list<string> */
    private array $namespaces = [];

    protected function setUp(): void
    {
        if (!class_exists(FrameworkBundle::class)) {
            $this->markTestSkipped('FrameworkBundle is not installed (php-symfony-framework-bundle)');
        }
        $this->dir = sys_get_temp_dir() . '/table-sf-' . getmypid() . '-' . bin2hex(random_bytes(4));
        mkdir($this->dir);
    }

    protected function tearDown(): void
    {
        foreach ($this->namespaces as $ns) {
            Table::clear($ns);
            Table::delete($ns, '@versions');
        }
        if (isset($this->dir) && is_dir($this->dir)) {
            exec('rm -rf ' . escapeshellarg($this->dir));
        }
    }

    private function boot(): \Symfony\Component\DependencyInjection\ContainerInterface
    {
        $kernel = new SymfonyKernel($this->dir, self::CACHE);
        $kernel->boot();
        return $kernel->getContainer();
    }

    public function testPoolsOnCacheAdapterTable(): void
    {
        $container = $this->boot();
        $pool = $container->get('my.pool');
        $this->assertInstanceOf(TableAdapter::class, $pool);
        $this->assertInstanceOf(TableAdapter::class, $container->get('cache.app'));
        $ns = $this->namespaces[] = $pool->getTableNamespace();
        $this->namespaces[] = $container->get('cache.app')->getTableNamespace();
        $this->assertNotSame($ns, $container->get('cache.app')->getTableNamespace(), 'a table namespace per pool');

        $since = Seconds::since();
        $this->assertSame('built', $pool->get('report', function (ItemInterface $item) {
            return 'built';
        }));
        $this->assertSame('built', Table::get('report', $ns));
        $ttl = Table::ttl('report', $ns);
        $this->assertGreaterThanOrEqual(600 - Seconds::crossed($since), $ttl, 'default_lifetime: 600');
        $this->assertLessThanOrEqual(600, $ttl);
        $this->assertSame($container->getParameter('container.build_id'), Table::get($ns, '@versions'), 'the build id is the version');

        $app = $container->get('cache.app');
        $app->save($app->getItem('k')->set('app'));
        $this->assertTrue($container->get('cache.global_clearer')->clearPool('my.pool'), 'cache:pool:clear my.pool');
        $this->assertFalse($pool->hasItem('report'));
        $this->assertTrue($app->hasItem('k'), 'clearing one pool leaves the others');

        $pool->save($pool->getItem('shared')->set('across boots'));
        $again = (new SymfonyKernel($this->dir, self::CACHE));
        $again->boot();
        $this->assertSame('across boots', $again->getContainer()->get('my.pool')->getItem('shared')->get(),
            'another worker of the same build sees the entry');
    }

    public function testSameKeyTestsAsCacheAdapterApcu(): void
    {
        if (!ApcuAdapter::isSupported()) {
            $this->markTestSkipped('APCu is not loaded or apc.enable_cli is off');
        }
        $container = $this->boot();
        $apcu = $container->get('apcu.pool');
        $this->assertInstanceOf(ApcuAdapter::class, $apcu);
        $table = $container->get('my.pool');
        $this->namespaces[] = $table->getTableNamespace();
        $this->assertSame(KeyOutcomes::of($apcu), KeyOutcomes::of($table));
    }
}
