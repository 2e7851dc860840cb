<?php

declare(strict_types=1);

namespace Shm\Cache\Tests;

use PHPUnit\Framework\TestCase;

/**
 * A batch write into a full noeviction table: PSR-16 setMultiple() and Laravel's putMany() answer false,
 * and a key that was not stored is a miss afterwards, never the value it held before the batch. Runs in a
 * PHP of its own with a 2 MB noeviction table (TABLE_SO, as run.sh sets it).
 */
final class SetManyFailedTest extends TestCase
{
    private function runScript(string $body): array
    {
        $so = getenv('TABLE_SO');
        if ($so === false || $so === '') {
            $this->markTestSkipped('TABLE_SO (the table.so under test) is not set');
        }
        $code = 'require ' . var_export(__DIR__ . '/bootstrap.php', true) . ';'
            . '$big = []; for ($i = 0; $i < 40; $i++) { $big["k$i"] = str_repeat("v", 100000); }'
            . $body;
        $out = shell_exec(escapeshellarg(PHP_BINARY) . ' -n -d extension=' . escapeshellarg($so)
            . ' -d table.memory=2M -d table.eviction_policy=noeviction -d include_path='
            . escapeshellarg(get_include_path()) . ' -r ' . escapeshellarg($code) . ' 2>&1');
        $this->assertIsString($out);
        $result = json_decode($out, true);
        $this->assertIsArray($result, $out);
        return $result;
    }

    private function assertOutcome(array $r): void
    {
        [$ok, $new, $old, $missing] = $r;
        $this->assertFalse($ok, 'the batch did not fit');
        $this->assertGreaterThan(0, $new, 'some keys were stored');
        $this->assertGreaterThan(0, $missing, 'some were not');
        $this->assertSame(0, $old, 'no key answers with the value it held before the batch');
        $this->assertSame(40, $new + $missing);
    }

    public function testSimpleCacheSetMultiple(): void
    {
        $this->assertOutcome($this->runScript(
            '$c = new Shm\Cache\SimpleCache("full");'
            . 'foreach ($big as $k => $v) { $c->set($k, "old"); }'
            . '$ok = $c->setMultiple($big);'
            . '$n = [0, 0, 0]; foreach ($c->getMultiple(array_keys($big), "miss") as $v) {'
            . ' $n[$v === "miss" ? 2 : ($v === "old" ? 1 : 0)]++; }'
            . 'echo json_encode([$ok, ...$n]);'
        ));
    }

    public function testLaravelPutMany(): void
    {
        $this->assertOutcome($this->runScript(
            '$c = new Illuminate\Cache\Repository(new Shm\Cache\Laravel\TableStore("full"));'
            . 'foreach ($big as $k => $v) { $c->forever($k, "old"); }'
            . '$ok = $c->putMany($big, 60);'
            . '$n = [0, 0, 0]; foreach ($c->many(array_keys($big)) as $v) {'
            . ' $n[$v === null ? 2 : ($v === "old" ? 1 : 0)]++; }'
            . 'echo json_encode([$ok, ...$n]);'
        ));
    }
}
