<?php

declare(strict_types=1);

namespace Shm\Bench\Run;

use Shm\Bench\Benchmark;
use Shm\Bench\BenchmarkFailure;
use Shm\Bench\Operation;
use Shm\Bench\Subject\Subject;

/**
 * Seeds a subject through its own API and proves, through the same API, that it holds the case's data:
 * before timing, and again after every iteration. A benchmark that measures misses is worse than none,
 * so any difference aborts the run, naming the subject, the case and the key.
 *
 * The reads that prove it run in a forked child (where pcntl is available). With zero-copy on, a CLI
 * process holds every entry it reads until it exits, at most 1,024 of them, and forked workers inherit
 * those holds: reading in this long-lived process would fill its hold list with the first seeding's
 * entries, and every later worker would have to copy what it reads.
 */
final readonly class Verifier
{
    public function __construct(private Subject $subject, private Benchmark $case)
    {
    }

    public function seed(): void
    {
        $dataset = $this->case->dataset;
        foreach ($dataset->keys as $i => $key) {
            if (!$this->subject->store($key, $dataset->values[$i])) {
                $this->fail("storing key \"$key\" failed while seeding");
            }
        }
        $this->inChild(fn () => $this->verifyValues('after seeding'));
    }

    /** After timing $ops operations in all: values unchanged, or counters that add up. */
    public function verifyAfter(int $ops, string $when): void
    {
        $workload = $this->case->workload;
        if ($workload->uses(Operation::Increment)) {
            $this->inChild(fn () => $this->verifyCounters($workload->share(Operation::Increment, $ops), $when));
        } else {
            $this->inChild(fn () => $this->verifyValues($when));
        }
    }

    /**
     * Runs $check in a forked child that exits when done (detached before the fork and attached in the
     * child, as workers are); its failure is rethrown here with its message. Without pcntl, runs it here.
     *
     * @param callable(): void $check
     */
    private function inChild(callable $check): void
    {
        if (!function_exists('pcntl_fork')) {
            $check();

            return;
        }
        $report = tempnam(sys_get_temp_dir(), 'table-bench-verify-');
        if ($report === false) {
            throw new BenchmarkFailure('cannot create a temporary file for the verifying child');
        }
        try {
            $this->subject->detach();
            $pid = pcntl_fork();
            if ($pid === -1) {
                throw new BenchmarkFailure('pcntl_fork() failed: ' . pcntl_strerror(pcntl_get_last_error()));
            }
            if ($pid === 0) {
                $status = 0;
                try {
                    $this->subject->attach();
                    $check();
                } catch (\Throwable $e) {
                    file_put_contents($report, $e->getMessage());
                    $status = 1;
                }
                exit($status);   // runs no finally block: the parent removes the report
            }
            pcntl_waitpid($pid, $status);
            if (!pcntl_wifexited($status) || pcntl_wexitstatus($status) !== 0) {
                $message = (string) file_get_contents($report);
                throw new BenchmarkFailure($message !== '' ? $message : sprintf(
                    '%s / %s: the verifying child ended abnormally (wait status %d)',
                    $this->subject->name(),
                    $this->case->name,
                    $status,
                ));
            }
        } finally {
            @unlink($report);
        }
    }

    private function verifyValues(string $when): void
    {
        $dataset = $this->case->dataset;
        foreach ($dataset->keys as $i => $key) {
            $expected = $dataset->values[$i];
            [$found, $actual] = $this->subject->read($key);
            if (!$found) {
                $this->fail("key \"$key\" is missing $when");
            }
            if (!self::same($expected, $actual)) {
                $this->fail(sprintf('key "%s" differs from what was stored %s: %s', $key, $when, self::difference($expected, $actual)));
            }
        }
    }

    /** Workers spread increments over keys unpredictably, but the total is exact. */
    private function verifyCounters(int $increments, string $when): void
    {
        $dataset = $this->case->dataset;
        $total = 0;
        foreach ($dataset->keys as $key) {
            [$found, $actual] = $this->subject->read($key);
            if (!$found || !is_int($actual)) {
                $this->fail(sprintf('counter "%s" is %s %s', $key, $found ? self::describe($actual) : 'missing', $when));
            }
            $total += $actual;
        }
        $expected = array_sum($dataset->values) + $increments;
        if ($total !== $expected) {
            $this->fail("the counters add up to $total, not $expected, $when ($increments increments timed)");
        }
    }

    /** === as the values were stored; == when objects are involved, as they come back as copies. */
    private static function same(mixed $expected, mixed $actual): bool
    {
        $hasObject = is_object($expected);
        if (is_array($expected)) {
            array_walk_recursive($expected, static function (mixed $value) use (&$hasObject): void {
                $hasObject = $hasObject || is_object($value);
            });
        }

        return $hasObject ? $expected == $actual : $expected === $actual;
    }

    /** Where $actual first departs from $expected: '[geolocation][type]: got null, stored string(5) "Point"'. */
    private static function difference(mixed $expected, mixed $actual, string $path = ''): string
    {
        if (is_array($expected) && is_array($actual)) {
            if (array_keys($expected) !== array_keys($actual)) {
                return sprintf('%sgot keys [%s], stored [%s]', $path === '' ? '' : "$path: ", self::keyList($actual), self::keyList($expected));
            }
            foreach ($expected as $index => $value) {
                if (!self::same($value, $actual[$index])) {
                    return self::difference($value, $actual[$index], "{$path}[$index]");
                }
            }
        }

        return sprintf('%sgot %s, stored %s', $path === '' ? '' : "$path: ", self::describe($actual), self::describe($expected));
    }

    /** @param array<mixed> $array */
    private static function keyList(array $array): string
    {
        $keys = array_keys($array);

        return implode(', ', array_slice($keys, 0, 12)) . (count($keys) > 12 ? ', ...' : '');
    }

    private static function describe(mixed $value): string
    {
        return match (true) {
            is_array($value) => sprintf('an array of %d', count($value)),
            is_string($value) => sprintf('string(%d) "%s"', strlen($value), strlen($value) > 40 ? substr($value, 0, 40) . '...' : $value),
            is_scalar($value), $value === null => get_debug_type($value) . ' ' . var_export($value, true),
            default => get_debug_type($value),
        };
    }

    private function fail(string $problem): never
    {
        throw new BenchmarkFailure(sprintf('%s / %s: %s', $this->subject->name(), $this->case->name, $problem));
    }
}
