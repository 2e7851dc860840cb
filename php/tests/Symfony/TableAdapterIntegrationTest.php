<?php

declare(strict_types=1);

namespace Shm\Cache\Tests\Symfony;

use Cache\IntegrationTests\CachePoolTest;
use Shm\Cache\Symfony\TableAdapter;

/**
 * php-cache/integration-tests' PSR-6 conformance suite against the Symfony adapter.
 *
 * The adapter checks keys where Symfony's AbstractAdapter does, inside assert(), as ApcuAdapter does: with
 * zend.assertions=-1 (how php/tests/run.sh runs PHP) the suite's five invalid-key tests are skipped here
 * and run by testInvalidKeysWithAssertionsOn() in a child PHPUnit with zend.assertions=1.
 */
final class TableAdapterIntegrationTest extends CachePoolTest
{
    private const INVALID_KEY_TESTS = ['testGetItemInvalidKeys', 'testGetItemsInvalidKeys', 'testHasItemInvalidKeys',
        'testDeleteItemInvalidKeys', 'testDeleteItemsInvalidKeys'];

    public function createCachePool()
    {
        return new TableAdapter('sf-conformance');
    }

    protected function setUp(): void
    {
        if (ini_get('zend.assertions') !== '1') {
            foreach (self::INVALID_KEY_TESTS as $test) {
                $this->skippedTests[$test] = 'keys are checked inside assert(), as by ApcuAdapter: run with zend.assertions=1 by testInvalidKeysWithAssertionsOn()';
            }
        }
        parent::setUp();
    }

    public function testInvalidKeysWithAssertionsOn(): void
    {
        $so = getenv('TABLE_SO');
        if (ini_get('zend.assertions') === '1' || $so === false || $so === '') {
            $this->markTestSkipped('runs only from a zend.assertions=-1 run with TABLE_SO set');
        }
        $phpunit = realpath($_SERVER['argv'][0] ?? '');
        if ($phpunit === false) {
            $this->markTestSkipped('the PHPUnit binary is unknown');
        }
        $filter = '/TableAdapterIntegrationTest::(' . implode('|', self::INVALID_KEY_TESTS) . ')\b/';
        exec(escapeshellarg(PHP_BINARY) . ' -d extension=' . escapeshellarg($so) . ' -d zend.assertions=1 '
            . escapeshellarg($phpunit) . ' -c ' . escapeshellarg(\dirname(__DIR__) . '/phpunit.xml')
            . ' --filter ' . escapeshellarg($filter) . ' 2>&1', $out, $rc);
        $this->assertSame(0, $rc, implode("\n", $out));
        // "OK (85 tests, ...)", or PHPUnit 10+'s "OK, but there were issues!" with "Tests: 85" when it only
        // reports deprecations of its own API; never FAILURES! or ERRORS!.
        $text = implode("\n", $out);
        $this->assertMatchesRegularExpression('/^(OK \(85 tests|Tests: 85, )/m', $text);
        $this->assertDoesNotMatchRegularExpression('/^(FAILURES|ERRORS)!/m', $text);
    }
}
