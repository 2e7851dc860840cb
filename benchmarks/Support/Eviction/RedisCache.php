<?php

declare(strict_types=1);

namespace Shm\Bench\Eviction;

use Redis;
use Throwable;

/** A redis-server of the benchmark's own (maxmemory, allkeys-lru), through phpredis, raw strings. */
final class RedisCache implements Cache
{
    private ?Redis $redis = null;

    public function __construct(private readonly int $port)
    {
    }

    public function name(): string
    {
        return 'Redis';
    }

    public function unavailableReason(): ?string
    {
        if (!extension_loaded('redis')) {
            return 'extension redis (phpredis) is not loaded';
        }
        try {
            $this->redis()->ping();
        } catch (Throwable $e) {
            return "no redis-server answers on 127.0.0.1:{$this->port} ({$e->getMessage()})";
        }

        return null;
    }

    public function version(): string
    {
        $info = $this->redis()->info('server');

        return 'Redis ' . ($info['redis_version'] ?? '?') . ' via phpredis ' . phpversion('redis');
    }

    public function get(string $key): bool
    {
        return $this->redis()->get($key) !== false;
    }

    public function set(string $key, string $value): bool
    {
        return $this->redis()->set($key, $value) === true;
    }

    public function count(): int
    {
        return (int) $this->redis()->dbSize();
    }

    public function evictions(): ?int
    {
        return (int) ($this->redis()->info('stats')['evicted_keys'] ?? 0);
    }

    public function held(array $keys): array
    {
        $held = [];
        foreach (array_chunk($keys, 1000) as $chunk) {
            $pipe = $this->redis()->multi(Redis::PIPELINE);
            foreach ($chunk as $key) {
                $pipe->exists($key);
            }
            foreach ($pipe->exec() as $i => $n) {
                $held[$chunk[$i]] = (int) $n > 0;
            }
        }

        return $held;
    }

    /** @return array<string, int> */
    public function extra(): array
    {
        $memory = $this->redis()->info('memory');

        return ['used_memory' => (int) ($memory['used_memory'] ?? 0), 'maxmemory' => (int) ($memory['maxmemory'] ?? 0)];
    }

    private function redis(): Redis
    {
        if ($this->redis === null) {
            $redis = new Redis();
            $redis->connect('127.0.0.1', $this->port, 1.0);
            $this->redis = $redis;
        }

        return $this->redis;
    }
}
