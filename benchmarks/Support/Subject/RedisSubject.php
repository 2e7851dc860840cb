<?php

declare(strict_types=1);

namespace Shm\Bench\Subject;

use Redis;
use RedisException;
use RuntimeException;
use Shm\Bench\Dataset;

/**
 * Redis through phpredis at 127.0.0.1:6379: the network reference. Values go through phpredis's PHP
 * serializer, except counters, which Redis must keep as bare integers for INCR. Every process holds a
 * connection of its own; none is carried across a fork. Keys carry the runner's pid as a prefix
 * (phpredis OPT_PREFIX), so that two runs sharing the server never touch each other's keys.
 */
final class RedisSubject implements CountingSubject, NetworkedSubject
{
    private const HOST = '127.0.0.1';
    private const PORT = 6379;
    private const CONNECT_TIMEOUT = 1.0;
    /** What phpredis sends for rawCommand('INFO', 'stats'). */
    private const INFO_REQUEST = "*2\r\n\$4\r\nINFO\r\n\$5\r\nstats\r\n";

    private readonly string $prefix;
    private ?Redis $redis = null;
    /** Bytes of this process's own INFO calls so far, which trafficBytes() leaves out. */
    private int $probeBytes = 0;

    public function __construct()
    {
        $this->prefix = getmypid() . ':';
    }

    public function name(): string
    {
        return 'Redis';
    }

    public function family(): string
    {
        return 'Redis';
    }

    public function unavailableReason(): ?string
    {
        if (!extension_loaded('redis')) {
            return 'extension redis (phpredis) is not loaded';
        }
        try {
            $this->connection()->ping();
        } catch (RedisException $e) {
            return sprintf('no redis-server answers at %s:%d (%s)', self::HOST, self::PORT, $e->getMessage());
        } finally {
            $this->detach();
        }

        return null;
    }

    public function version(): string
    {
        $server = $this->connection()->info('server')['redis_version'] ?? 'unknown';
        $this->detach();

        return "Redis $server via phpredis " . phpversion('redis');
    }

    public function settings(): array
    {
        return ['server' => self::HOST . ':' . self::PORT, 'serializer' => 'php'];
    }

    public function begin(Dataset $dataset): void
    {
        $this->connection();
    }

    public function attach(): void
    {
        $this->connection();
    }

    public function detach(): void
    {
        $this->redis?->close();
        $this->redis = null;
    }

    public function store(string $key, mixed $value): bool
    {
        return is_int($value)
            ? $this->connection()->rawCommand('SET', $this->prefix . $key, (string) $value) === true
            : $this->connection()->set($key, $value) === true;
    }

    public function read(string $key): array
    {
        $raw = $this->connection()->rawCommand('GET', $this->prefix . $key);
        if (!is_string($raw)) {
            return [false, null];
        }

        return [true, preg_match('/^-?\d+$/', $raw) === 1 ? (int) $raw : unserialize($raw)];
    }

    public function end(Dataset $dataset): void
    {
        $this->connection()->del($dataset->keys);
        $this->detach();
    }

    public function getBatch(array $keys, int $from, int $count): int
    {
        $redis = $this->redis;
        $size = count($keys);
        $misses = 0;
        for ($i = $from, $end = $from + $count; $i < $end; $i++) {
            if ($redis->get($keys[$i % $size]) === false) {
                $misses++;
            }
        }

        return $misses;
    }

    public function setBatch(array $keys, array $values, int $from, int $count): int
    {
        $redis = $this->redis;
        $size = count($keys);
        $failures = 0;
        for ($i = $from, $end = $from + $count; $i < $end; $i++) {
            if ($redis->set($keys[$i % $size], $values[$i % $size]) !== true) {
                $failures++;
            }
        }

        return $failures;
    }

    public function incrementBatch(array $keys, int $from, int $count): int
    {
        $redis = $this->redis;
        $size = count($keys);
        $failures = 0;
        for ($i = $from, $end = $from + $count; $i < $end; $i++) {
            if (!is_int($redis->incr($keys[$i % $size]))) {
                $failures++;
            }
        }

        return $failures;
    }

    /**
     * From INFO stats. The server counts a request when it reads it and a reply when it writes it, so a
     * snapshot includes its own request but not its own reply: that reply shows up in the next snapshot.
     */
    public function trafficBytes(): int
    {
        $info = (string) $this->connection()->rawCommand('INFO', 'stats');
        $this->probeBytes += strlen(self::INFO_REQUEST);
        if (preg_match_all('/^total_net_(?:input|output)_bytes:(\d+)/m', $info, $counters) !== 2) {
            throw new RuntimeException('INFO stats of the redis-server lacks total_net_input/output_bytes');
        }
        $total = (int) array_sum($counters[1]) - $this->probeBytes;
        $this->probeBytes += strlen('$' . strlen($info) . "\r\n" . $info . "\r\n");

        return $total;
    }

    private function connection(): Redis
    {
        if ($this->redis === null) {
            $redis = new Redis();
            $redis->connect(self::HOST, self::PORT, self::CONNECT_TIMEOUT);
            $redis->setOption(Redis::OPT_SERIALIZER, Redis::SERIALIZER_PHP);
            $redis->setOption(Redis::OPT_PREFIX, $this->prefix);
            $this->redis = $redis;
        }

        return $this->redis;
    }
}
