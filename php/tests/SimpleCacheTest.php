<?php

declare(strict_types=1);

namespace Shm\Cache\Tests;

use PHPUnit\Framework\TestCase;
use Psr\SimpleCache\CacheException as PsrCacheException;
use Psr\SimpleCache\InvalidArgumentException as PsrInvalidArgument;
use Shm\Cache\SimpleCache;
use Shm\Cache\Tests\Support\Seconds;
use Shm\Table;

/** What the conformance suite does not cover: namespaces, default TTL, the table's limits and errors. */
final class SimpleCacheTest extends TestCase
{
    protected function setUp(): void
    {
        Table::clear('psr16-a');
        Table::clear('psr16-b');
    }

    public function testEachCacheIsOneTableNamespaceAndClearEmptiesOnlyIt(): void
    {
        $a = new SimpleCache('psr16-a');
        $b = new SimpleCache('psr16-b');
        $a->set('k', 'from a');
        $b->set('k', 'from b');
        $this->assertSame('from a', Table::get('k', 'psr16-a'));
        $this->assertSame('from b', $b->get('k'));
        $this->assertTrue($a->clear());
        $this->assertNull($a->get('k'));
        $this->assertSame('from b', $b->get('k'));
    }

    public function testStoredNullIsAHitAndAMissReturnsTheDefault(): void
    {
        $c = new SimpleCache('psr16-a');
        $c->set('null', null);
        $this->assertNull($c->get('null', 'default'));
        $this->assertTrue($c->has('null'));
        $this->assertSame('default', $c->get('missing', 'default'));
        $this->assertSame(['null' => null, 'missing' => 'd'], $c->getMultiple(['null', 'missing'], 'd'));
    }

    public function testDefaultTtlAppliesWhenTtlIsNull(): void
    {
        $c = new SimpleCache('psr16-a', 100);
        $since = Seconds::since();
        $c->set('k', 1);
        $ttl = Table::ttl('k', 'psr16-a');
        $this->assertGreaterThanOrEqual(100 - Seconds::crossed($since), $ttl);
        $this->assertLessThanOrEqual(100, $ttl);
        $c->set('forever', 1, null);
        $since = Seconds::since();
        $c->setMultiple(['m' => 1]);
        $this->assertGreaterThanOrEqual(100 - Seconds::crossed($since), Table::ttl('m', 'psr16-a'));
        (new SimpleCache('psr16-b'))->set('x', 1);
        $this->assertFalse(Table::ttl('x', 'psr16-b'), 'default 0: never expires');
    }

    public function testExplicitTtlOverridesDefaultAndHugeTtlsAreCapped(): void
    {
        $c = new SimpleCache('psr16-a', 100);
        $c->set('k', 1, 5);
        $this->assertLessThanOrEqual(5, Table::ttl('k', 'psr16-a'));
        $this->assertTrue($c->set('big', 1, PHP_INT_MAX));
        $this->assertGreaterThan(2000000000, Table::ttl('big', 'psr16-a'));
        $this->assertTrue($c->set('century', 1, new \DateInterval('P100Y')));
        $this->assertSame(1, $c->get('century'));
    }

    public function testZeroOrNegativeTtlDeletesAnExistingKey(): void
    {
        $c = new SimpleCache('psr16-a');
        foreach ([0, -5, new \DateInterval('PT0S')] as $ttl) {
            $c->set('k', 'v');
            $this->assertTrue($c->set('k', 'new', $ttl));
            $this->assertFalse($c->has('k'));
        }
        $c->setMultiple(['a' => 1, 'b' => 2]);
        $this->assertTrue($c->setMultiple(['a' => 3, 'b' => 4], -1));
        $this->assertSame(0, Table::count('psr16-a'));
    }

    public function testKeysAreValidatedEvenWithAssertionsOff(): void
    {
        $this->assertSame('-1', ini_get('zend.assertions'), 'run with the production setting');
        $c = new SimpleCache('psr16-a');
        foreach (['', 'a:b', 'a{b', str_repeat('k', 65536)] as $bad) {
            try {
                $c->get($bad);
                $this->fail('accepted ' . substr($bad, 0, 10));
            } catch (PsrInvalidArgument $e) {
                $this->assertInstanceOf(\InvalidArgumentException::class, $e);
            }
        }
        $this->assertTrue($c->set(str_repeat('k', 65535), 'longest'));
        $this->assertSame('longest', $c->get(str_repeat('k', 65535)));
    }

    public function testBatchesTakeGeneratorsAndKeepOrder(): void
    {
        $c = new SimpleCache('psr16-a');
        $gen = (function () {
            yield 'x' => 1;
            yield 7 => 'seven';
        })();
        $this->assertTrue($c->setMultiple($gen));
        $this->assertSame(['7' => 'seven', 'nope' => null, 'x' => 1], $c->getMultiple((fn () => yield from ['7', 'nope', 'x'])()));
        $this->assertTrue($c->deleteMultiple(['x', '7']));
        $this->assertSame(0, Table::count('psr16-a'));
    }

    public function testBadConstructorArguments(): void
    {
        $this->expectException(PsrInvalidArgument::class);
        new SimpleCache('');
    }

    public function testNegativeDefaultTtlIsRejected(): void
    {
        $this->expectException(PsrInvalidArgument::class);
        new SimpleCache('psr16-a', -1);
    }

    /** php/autoload.php alone (no Composer) finds the PSR interfaces a system package installed. */
    public function testAutoloadWithoutComposerLoadsSystemPsrInterfaces(): void
    {
        if (stream_resolve_include_path('Psr/SimpleCache/autoload.php') === false) {
            $this->markTestSkipped('no psr/simple-cache on the include path (Debian: php-psr-simple-cache)');
        }
        $code = 'require ' . var_export(\dirname(__DIR__) . '/autoload.php', true) . ';'
            . 'echo json_encode([(new Shm\Cache\SimpleCache("x")) instanceof Psr\SimpleCache\CacheInterface,'
            . ' (new Shm\Cache\CacheItemPool("x")) instanceof Psr\Cache\CacheItemPoolInterface]);';
        $out = shell_exec(escapeshellarg(PHP_BINARY) . ' -n -d include_path=' . escapeshellarg(get_include_path())
            . ' -r ' . escapeshellarg($code) . ' 2>&1');
        $this->assertSame('[true,true]', $out);
    }

    /** A disabled table is a PSR CacheException that names the setting, not a silent miss. */
    public function testDisabledTableThrowsCacheException(): void
    {
        $so = getenv('TABLE_SO');
        if ($so === false || $so === '') {
            $this->markTestSkipped('TABLE_SO (the table.so under test) is not set');
        }
        $code = 'require ' . var_export(__DIR__ . '/bootstrap.php', true) . ';'
            . 'try { (new Shm\Cache\SimpleCache("x"))->get("k"); echo "no exception"; }'
            . 'catch (Psr\SimpleCache\CacheException $e) { echo get_class($e), "|", get_class($e->getPrevious()), "|", $e->getMessage(); }';
        $out = shell_exec(escapeshellarg(PHP_BINARY) . ' -n -d extension=' . escapeshellarg($so)
            . ' -d table.enabled=0 -d include_path=' . escapeshellarg(get_include_path()) . ' -r ' . escapeshellarg($code) . ' 2>&1');
        $this->assertIsString($out);
        [$class, $previous, $message] = explode('|', $out, 3) + ['', '', ''];
        $this->assertSame(\Shm\Cache\CacheException::class, $class, $out);
        $this->assertSame(\Shm\TableException::class, $previous);
        $this->assertStringContainsString('table.enabled', $message);
        $this->assertTrue(is_subclass_of(\Shm\Cache\CacheException::class, PsrCacheException::class));
    }
}
