<?php

declare(strict_types=1);

namespace Shm\Bench\Cli;

use Shm\Bench\Eviction\ApcuCache;
use Shm\Bench\Eviction\Cache;
use Shm\Bench\Eviction\MemcachedCache;
use Shm\Bench\Eviction\RedisCache;
use Shm\Bench\Eviction\Replay;
use Shm\Bench\Eviction\Server;
use Shm\Bench\Eviction\TableCache;
use Shm\Bench\Eviction\Trace;
use Shm\Bench\Report\TextTable;
use Shm\Bench\Run\PhpCommandLine;
use Shm\Bench\UsageError;
use Throwable;

/**
 * benchmarks/eviction: hit ratio under memory pressure. One fixed-seed trace (Zipf over many keys,
 * log-normal value sizes) is replayed against every cache, each given the same memory budget: get each
 * key, set it on a miss; hits are counted over the last two thirds, once every cache is full. Each cache runs in a PHP of its own (its budget and policy are INI_SYSTEM
 * settings, or a server started for it), which prints one JSON line that this process collects.
 */
final class EvictionCommand
{
    private const SUBJECTS = ['table-gdsf', 'table-lru', 'table-random', 'table-gdsf-lz4', 'table-gdsf-zstd', 'apcu',
                              'redis', 'memcached', 'memcached-compressed'];
    private const USAGE = <<<'TXT'
        usage: php [PHP options] benchmarks/eviction [options]
          --ops N          operations in the trace (default 600000; the first third is not counted)
          --keys N         distinct keys the Zipf distribution draws from (default 200000)
          --exponent X     Zipf exponent (default 0.99)
          --memory SIZE    the budget of every cache, e.g. 64M (default 32M)
          --seed N         the trace's seed (default 1)
          --compressible   JSON-like values that compress 3-5x (default: incompressible bytes)
          --filter LIST    subjects, from table-gdsf,table-lru,table-random,table-gdsf-lz4,table-gdsf-zstd,
                           apcu,redis,memcached,memcached-compressed (default all; a table-*-lz4/zstd
                           subject is skipped when the table.so has no such compressor)
          --json           print the JSON results instead of the table
          --out FILE       also write the JSON results to FILE
          -h, --help       this text
        TXT;

    /** @param list<string> $argv */
    public static function main(array $argv): int
    {
        try {
            $o = self::parse(array_slice($argv, 1));
            if (isset($o['help'])) {
                echo self::USAGE, "\n";

                return 0;
            }
            if (isset($o['subject'])) {
                return self::child($o);
            }

            return self::parent($o, $argv[0]);
        } catch (UsageError $e) {
            fwrite(STDERR, "eviction: {$e->getMessage()}\n" . self::USAGE . "\n");

            return 2;
        } catch (Throwable $e) {
            fwrite(STDERR, "eviction: {$e->getMessage()}\n");

            return 1;
        }
    }

    /** @return array<string, string> */
    private static function parse(array $arguments): array
    {
        $valued = ['ops', 'keys', 'exponent', 'memory', 'seed', 'filter', 'out', 'subject', 'port'];
        $o = ['ops' => '600000', 'keys' => '200000', 'exponent' => '0.99', 'memory' => '32M', 'seed' => '1'];
        while ($arguments !== []) {
            $argument = array_shift($arguments);
            [$name, $value] = str_contains($argument, '=') ? explode('=', $argument, 2) : [$argument, null];
            $name = match ($name) { '-h' => 'help', default => ltrim($name, '-') };
            if ($name === 'help' || $name === 'json' || $name === 'compressible') {
                $o[$name] = '1';
            } elseif (in_array($name, $valued, true)) {
                $o[$name] = $value ?? array_shift($arguments) ?? throw new UsageError("--$name needs a value");
            } else {
                throw new UsageError("unknown option $argument");
            }
        }
        foreach (['ops', 'keys', 'seed'] as $n) {
            if (!ctype_digit($o[$n]) || (int) $o[$n] < 1) {
                throw new UsageError("--$n takes a positive integer");
            }
        }
        if (!is_numeric($o['exponent']) || (float) $o['exponent'] <= 0) {
            throw new UsageError('--exponent takes a positive number');
        }
        self::bytes($o['memory']);

        return $o;
    }

    private static function bytes(string $size): int
    {
        if (!preg_match('/^(\d+)([KMG]?)$/i', $size, $m) || (int) $m[1] < 1) {
            throw new UsageError("--memory takes a size such as 64M, not '$size'");
        }

        return (int) $m[1] * match (strtoupper($m[2])) { 'K' => 1024, 'M' => 1 << 20, 'G' => 1 << 30, default => 1 };
    }

    /** In the PHP started for one subject: replay and print one JSON line. */
    private static function child(array $o): int
    {
        $port = (int) ($o['port'] ?? 0);
        $cache = match ($o['subject']) {
            'table-lru', 'table-random', 'table-gdsf', 'table-gdsf-lz4', 'table-gdsf-zstd' => new TableCache(),
            'apcu' => new ApcuCache(),
            'redis' => new RedisCache($port),
            'memcached' => new MemcachedCache($port),
            'memcached-compressed' => new MemcachedCache($port, true),
            default => throw new UsageError("unknown subject {$o['subject']}"),
        };
        $reason = $cache->unavailableReason();
        if ($reason !== null) {
            echo json_encode(['subject' => $o['subject'], 'skipped' => $reason]), "\n";

            return 0;
        }
        $trace = new Trace((int) $o['ops'], (int) $o['keys'], (int) $o['seed'], (float) $o['exponent'],
            isset($o['compressible']));
        $result = ['subject' => $o['subject'], 'memory' => $o['memory']] + Replay::run($cache, $trace);
        echo json_encode($result), "\n";

        return 0;
    }

    private static function parent(array $o, string $script): int
    {
        $php = PhpCommandLine::current() ?? throw new \RuntimeException('cannot read this PHP\'s command line from /proc/self/cmdline');
        $subjects = isset($o['filter']) ? array_map('trim', explode(',', strtolower($o['filter']))) : self::SUBJECTS;
        foreach ($subjects as $s) {
            if (!in_array($s, self::SUBJECTS, true)) {
                throw new UsageError("unknown subject $s (known: " . implode(',', self::SUBJECTS) . ')');
            }
        }
        $budget = self::bytes($o['memory']);
        $logDir = sys_get_temp_dir();
        $passOn = ['--ops=' . $o['ops'], '--keys=' . $o['keys'], '--exponent=' . $o['exponent'],
                   '--memory=' . $o['memory'], '--seed=' . $o['seed'],
                   ...(isset($o['compressible']) ? ['--compressible'] : [])];
        $results = [];
        foreach ($subjects as $subject) {
            $server = null;
            $line = $php;
            try {
                switch ($subject) {
                    case 'table-lru':
                    case 'table-random':
                    case 'table-gdsf':
                    case 'table-gdsf-lz4':
                    case 'table-gdsf-zstd':
                        [$policy, $compression] = explode('-', substr($subject, 6)) + [1 => 'none'];
                        $line = $php->withIni('table.enabled', '1')->withIni('table.memory', $o['memory'])
                            ->withIni('table.eviction_policy', $policy)->withIni('table.compression', $compression)
                            ->withIni('table.zero_copy', '0');
                        break;
                    case 'apcu':
                        $line = $php->withIni('apc.enable_cli', '1')->withIni('apc.shm_size', $o['memory']);
                        break;
                    default:
                        $server = Server::start($subject === 'memcached-compressed' ? 'memcached' : $subject, $budget, $logDir);
                }
                $arguments = [...$passOn, "--subject=$subject", '--port=' . ($server?->port ?? 0)];
                $output = self::runChild($line->command($script, $arguments));
            } catch (Throwable $e) {
                $output = json_encode(['subject' => $subject, 'skipped' => $e->getMessage()]);
            } finally {
                $server?->stop();
            }
            $result = json_decode(trim((string) $output), true);
            if (!is_array($result)) {
                $result = ['subject' => $subject, 'skipped' => 'its PHP printed no result: ' . substr((string) $output, 0, 200)];
            }
            if (isset($result['skipped'])) {
                fwrite(STDERR, "warning: $subject skipped: {$result['skipped']}\n");
            }
            $results[] = $result;
        }
        $document = [
            'benchmark' => 'eviction',
            'trace' => ['ops' => (int) $o['ops'], 'keys' => (int) $o['keys'], 'zipf' => (float) $o['exponent'],
                        'seed' => (int) $o['seed'], 'sizes' => 'log-normal, median 1 KiB, sigma 1.2, 100 B..100 KiB',
                        'values' => isset($o['compressible']) ? 'compressible (JSON rows)' : 'incompressible',
                        'counted' => 'the last 2/3'],
            'memory' => $o['memory'],
            'php' => PHP_VERSION,
            'cpu' => self::cpu(),
            'results' => $results,
        ];
        $json = json_encode($document, JSON_PRETTY_PRINT | JSON_UNESCAPED_SLASHES) . "\n";
        if (isset($o['out'])) {
            file_put_contents($o['out'], $json);
        }
        echo isset($o['json']) ? $json : self::table($document);
        $ran = array_filter($results, fn ($r) => !isset($r['skipped']));

        return $ran === [] ? 1 : 0;
    }

    private static function runChild(array $command): string
    {
        $process = proc_open($command, [0 => ['file', '/dev/null', 'r'], 1 => ['pipe', 'w']], $pipes);
        if (!is_resource($process)) {
            throw new \RuntimeException('could not start ' . PHP_BINARY);
        }
        $output = stream_get_contents($pipes[1]);
        fclose($pipes[1]);
        $status = proc_close($process);
        if ($status !== 0) {
            throw new \RuntimeException("its PHP exited with status $status");
        }
        $lines = array_values(array_filter(explode("\n", (string) $output), fn ($l) => str_starts_with($l, '{')));

        return (string) end($lines);
    }

    private static function table(array $d): string
    {
        $t = $d['trace'];
        $head = sprintf("Eviction: %s ops (hits counted over %s), Zipf %.2f over %s keys, %s, %s values; every cache given %s\nPHP %s, %s\n",
            number_format($t['ops']), $t['counted'], $t['zipf'], number_format($t['keys']), $t['sizes'], $t['values'],
            $d['memory'], $d['php'], $d['cpu']);
        $rows = [];
        foreach ($d['results'] as $r) {
            if (isset($r['skipped'])) {
                continue;
            }
            $rows[] = [
                $r['cache'],
                $r['memory'],
                sprintf('%.2f%%', 100 * $r['hit_ratio']),
                $r['evictions'] === null ? 'n/a' : number_format($r['evictions']),
                number_format($r['keys_lost']),
                sprintf('%.3f', $r['evicted_per_written']),
                (string) $r['wipes'],
                number_format($r['failed_sets']),
                number_format($r['keys_held']),
                sprintf('%.1f', $r['bytes_held'] / 1048576),
                number_format($r['ops_per_second'], 0),
            ];
        }
        $versions = implode('; ', array_map(fn ($r) => $r['version'] ?? '', array_filter($d['results'], fn ($r) => !isset($r['skipped']))));

        return $head . TextTable::render(
            ['Client', 'Memory', 'Hit ratio', 'Evictions', 'Keys lost', 'Evicted B/written B', 'Wipes', 'Failed sets', 'Keys held', 'MiB held', 'ops/s'],
            $rows, [2, 3, 4, 5, 6, 7, 8, 9, 10]) . "Versions: $versions\n";
    }

    private static function cpu(): string
    {
        $info = @file_get_contents('/proc/cpuinfo') ?: '';

        return preg_match('/^model name\s*:\s*(.+)$/m', $info, $m) ? trim($m[1]) . ', ' . substr_count($info, "\nprocessor") + 1 . ' CPUs' : php_uname('m');
    }
}
