<?php

declare(strict_types=1);

namespace Shm\Cache\Tests\Symfony;

use PHPUnit\Framework\TestCase;
use Shm\Cache\Symfony\TableAdapter;
use Shm\Cache\Tests\Support\Workers;
use Shm\Table;
use Symfony\Component\Cache\Psr16Cache;
use Symfony\Contracts\Cache\ItemInterface;

/** The Symfony adapter's own behaviour: contracts get(), stampede protection, namespaces, version, prune. */
final class TableAdapterTest extends TestCase
{
    protected function setUp(): void
    {
        foreach (['sf-a', 'sf-b', 'sf-v', 'sf-stampede', '@symfony'] as $ns) {
            Table::clear($ns);
        }
        Table::delete('sf-v', '@versions');
    }

    public function testContractsGetComputesOnceAndThenHits(): void
    {
        $pool = new TableAdapter('sf-a');
        $calls = 0;
        $compute = function (ItemInterface $item) use (&$calls) {
            $calls++;
            $item->expiresAfter(60);
            return ['built' => true];
        };
        $this->assertSame(['built' => true], $pool->get('k', $compute));
        $this->assertSame(['built' => true], $pool->get('k', $compute));
        $this->assertSame(1, $calls);
        $this->assertSame(['built' => true], (new TableAdapter('sf-a'))->getItem('k')->get());
        $this->assertLessThanOrEqual(60, Table::ttl('k', 'sf-a'));
        $this->assertFalse(Table::exists("sf-a\0k", '@claims'), 'the claim key is gone');
    }

    public function testBetaInfForcesRecomputation(): void
    {
        $pool = new TableAdapter('sf-a');
        $pool->get('k', fn () => 'old');
        $this->assertSame('new', $pool->get('k', fn () => 'new', INF));
        $this->assertSame('new', $pool->getItem('k')->get());
    }

    public function testCallbackCanDeclineToSave(): void
    {
        $pool = new TableAdapter('sf-a');
        $this->assertSame('transient', $pool->get('k', function (ItemInterface $item, bool &$save) {
            $save = false;
            return 'transient';
        }));
        $this->assertFalse($pool->hasItem('k'));
    }

    public function testACallbackThatThrowsStoresNothingAndTheNextMissComputesAgain(): void
    {
        $pool = new TableAdapter('sf-a');
        try {
            $pool->get('k', function () {
                throw new \DomainException('backend down');
            });
            $this->fail('the exception must propagate');
        } catch (\DomainException $e) {
            $this->assertSame('backend down', $e->getMessage());
        }
        $this->assertFalse($pool->hasItem('k'));
        $this->assertFalse(Table::exists("sf-a\0k", '@claims'));
        $this->assertSame('recovered', $pool->get('k', fn () => 'recovered'), 'the next miss computes again');
    }

    public function testConcurrentMissesRunTheCallbackOnceAcrossWorkers(): void
    {
        $results = Workers::run(4, function (int $i) {
            $pool = new TableAdapter('sf-stampede');
            return $pool->get('report', function () use ($i) {
                Table::increment('calls', 1, null, 'sf-stampede-count');
                usleep(300000);   // long enough that the other workers miss too
                return "built by $i";
            });
        });
        $this->assertCount(4, $results);
        $this->assertCount(1, array_unique($results), 'every worker got the same value: ' . implode(', ', $results));
        $this->assertSame(1, Table::get('calls', 'sf-stampede-count'));
        Table::clear('sf-stampede-count');
    }

    public function testNamespacesAreTableNamespacesAndClearIsLocal(): void
    {
        $a = new TableAdapter('sf-a');
        $b = new TableAdapter('sf-b');
        $a->save($a->getItem('k')->set('a'));
        $b->save($b->getItem('k')->set('b'));
        $this->assertSame('a', Table::get('k', 'sf-a'));
        $this->assertTrue($a->clear());
        $this->assertFalse($a->getItem('k')->isHit());
        $this->assertSame('b', $b->getItem('k')->get());
        $default = new TableAdapter();
        $default->save($default->getItem('k')->set('d'));
        $this->assertSame('@symfony', $default->getTableNamespace());
        $this->assertSame('d', Table::get('k', '@symfony'));
    }

    public function testClearWithPrefixDeletesOnlyThoseKeys(): void
    {
        $pool = new TableAdapter('sf-a');
        foreach (['user.1', 'user.2', 'users', 'post.1'] as $k) {
            $pool->save($pool->getItem($k)->set($k));
        }
        $this->assertTrue($pool->clear('user.'));
        $this->assertSame(['post.1', 'users'], $this->sortedKeys('sf-a'));
        $this->assertTrue($pool->clear('users'));
        $this->assertSame(['post.1'], $this->sortedKeys('sf-a'));
    }

    public function testANewVersionClearsTheNamespaceOnce(): void
    {
        $v1 = new TableAdapter('sf-v', 0, 'v1');
        $v1->save($v1->getItem('k')->set('cached'));
        $this->assertTrue((new TableAdapter('sf-v', 0, 'v1'))->getItem('k')->isHit(), 'same version keeps it');
        $v2 = new TableAdapter('sf-v', 0, 'v2');
        $this->assertFalse($v2->getItem('k')->isHit(), 'a new version starts empty');
        $v2->save($v2->getItem('k')->set('v2'));
        $v2->clear();
        $v2->save($v2->getItem('k')->set('after clear'));
        $this->assertTrue((new TableAdapter('sf-v', 0, 'v2'))->getItem('k')->isHit(), 'clear() does not forget the version');
    }

    public function testDefaultLifetimeAndPrune(): void
    {
        $pool = new TableAdapter('sf-a', 1);
        $pool->save($pool->getItem('short')->set(1));
        $pool->save($pool->getItem('long')->set(1)->expiresAfter(100));
        $this->assertLessThanOrEqual(1, Table::ttl('short', 'sf-a'));
        sleep(2);
        $this->assertTrue($pool->prune());
        $this->assertSame(1, Table::count('sf-a'));
        $this->assertFalse($pool->getItem('short')->isHit());
        $this->assertTrue($pool->getItem('long')->isHit());
    }

    public function testIsSupportedReadsTableEnabled(): void
    {
        $this->assertTrue(TableAdapter::isSupported());
        $so = getenv('TABLE_SO');
        if ($so === false || $so === '') {
            $this->markTestSkipped('TABLE_SO (the table.so under test) is not set');
        }
        $code = 'require ' . var_export(\dirname(__DIR__) . '/bootstrap.php', true) . ';'
            . 'var_export(Shm\Cache\Symfony\TableAdapter::isSupported()); echo "|";'
            . 'try { new Shm\Cache\Symfony\TableAdapter("x"); } catch (Symfony\Component\Cache\Exception\CacheException $e) { echo $e->getMessage(); }';
        foreach (['0', 'off'] as $setting) {
            $out = shell_exec(escapeshellarg(PHP_BINARY) . ' -n -d extension=' . escapeshellarg($so) . ' -d table.enabled=' . $setting
                . ' -d include_path=' . escapeshellarg(get_include_path()) . ' -r ' . escapeshellarg($code) . ' 2>&1');
            $this->assertSame("false|The table extension is not loaded or is disabled (table.enabled=0).", $out, "table.enabled=$setting");
        }
    }

    public function testWorksBehindSymfonysPsr16Bridge(): void
    {
        $cache = new Psr16Cache(new TableAdapter('sf-a'));
        $this->assertTrue($cache->set('k', [1, 2], 30));
        $this->assertSame([1, 2], $cache->get('k'));
        $this->assertSame([1, 2], Table::get('k', 'sf-a'));
    }

    /** @return list<string> */
    private function sortedKeys(string $ns): array
    {
        $keys = array_map('strval', Table::keys('*', $ns));
        sort($keys);
        return $keys;
    }
}
