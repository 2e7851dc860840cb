<?php

declare(strict_types=1);

namespace Shm\Cache\Tests\Symfony;

use PHPUnit\Framework\TestCase;
use Shm\Cache\Symfony\TableAdapter;
use Shm\Cache\Tests\Support\KeyOutcomes;
use Shm\Table;
use Symfony\Component\Cache\Adapter\ApcuAdapter;

/**
 * Keys are checked as Symfony's own ApcuAdapter checks them on the Symfony installed, in production
 * (zend.assertions=-1, as php/tests/run.sh runs PHP) and in development (zend.assertions=1, in a child
 * PHP). The expected outcomes are ApcuAdapter's, whatever this Symfony version does.
 */
final class ApcuParityTest extends TestCase
{
    protected function setUp(): void
    {
        if (!ApcuAdapter::isSupported()) {
            $this->markTestSkipped('APCu is not loaded or apc.enable_cli is off');
        }
        Table::clear('parity');
        Table::delete('parity', '@empty-key');
        apcu_clear_cache();
    }

    public function testKeysAsApcuAdapterWithAssertionsOff(): void
    {
        $this->assertSame('-1', ini_get('zend.assertions'));
        $apcu = KeyOutcomes::of(new ApcuAdapter('parity'));
        $this->assertSame($apcu, KeyOutcomes::of(new TableAdapter('parity')));
        $this->assertSame(0, Table::count('parity'), 'every key was deleted again');
    }

    public function testKeysAsApcuAdapterWithAssertionsOn(): void
    {
        $so = getenv('TABLE_SO');
        if ($so === false || $so === '') {
            $this->markTestSkipped('TABLE_SO (the table.so under test) is not set');
        }
        $code = 'require ' . var_export(\dirname(__DIR__) . '/bootstrap.php', true) . ';'
            . 'echo json_encode(['
            . 'Shm\Cache\Tests\Support\KeyOutcomes::of(new Symfony\Component\Cache\Adapter\ApcuAdapter("parity")),'
            . 'Shm\Cache\Tests\Support\KeyOutcomes::of(new Shm\Cache\Symfony\TableAdapter("parity"))]);';
        $out = shell_exec(escapeshellarg(PHP_BINARY) . ' -d extension=' . escapeshellarg($so) . ' -d apc.enable_cli=1 -d zend.assertions=1'
            . ' -d include_path=' . escapeshellarg(get_include_path()) . ' -r ' . escapeshellarg($code) . ' 2>&1');
        $both = json_decode((string) $out, true);
        $this->assertIsArray($both, (string) $out);
        [$apcu, $table] = $both;
        $this->assertSame($apcu, $table);
        $this->assertStringContainsString('InvalidArgumentException', $apcu['"user:42"'], 'the child ran with assertions on');
    }
}
