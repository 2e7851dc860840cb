<?php

declare(strict_types=1);

namespace Shm\Bench\Eviction;

use Memcached;

/**
 * A memcached of the benchmark's own (-m budget), through php-memcached: without compression, or with
 * php-memcached's default compression (values of 2,000 bytes and more, when they shrink enough).
 */
final class MemcachedCache implements Cache
{
    private ?Memcached $memcached = null;

    public function __construct(private readonly int $port, private readonly bool $compressed = false)
    {
    }

    public function name(): string
    {
        return $this->compressed ? 'memcached(compressed)' : 'memcached';
    }

    public function unavailableReason(): ?string
    {
        if (!extension_loaded('memcached')) {
            return 'extension memcached (php-memcached) is not loaded';
        }
        if ($this->stats() === []) {
            return "no memcached answers on 127.0.0.1:{$this->port}";
        }

        return null;
    }

    public function version(): string
    {
        return 'memcached ' . ($this->stats()['version'] ?? '?') . ' via php-memcached ' . phpversion('memcached');
    }

    public function get(string $key): bool
    {
        $this->client()->get($key);

        return $this->client()->getResultCode() === Memcached::RES_SUCCESS;
    }

    public function set(string $key, string $value): bool
    {
        return $this->client()->set($key, $value);
    }

    public function count(): int
    {
        return (int) ($this->stats()['curr_items'] ?? 0);
    }

    public function evictions(): ?int
    {
        return (int) ($this->stats()['evictions'] ?? 0);
    }

    public function held(array $keys): array
    {
        $held = array_fill_keys($keys, false);
        foreach (array_chunk($keys, 500) as $chunk) {
            foreach (array_keys($this->client()->getMulti($chunk) ?: []) as $key) {
                $held[$key] = true;
            }
        }

        return $held;
    }

    /** @return array<string, int> */
    public function extra(): array
    {
        $s = $this->stats();

        return ['limit_maxbytes' => (int) ($s['limit_maxbytes'] ?? 0), 'bytes' => (int) ($s['bytes'] ?? 0)];
    }

    /** @return array<string, mixed> */
    private function stats(): array
    {
        $all = $this->client()->getStats() ?: [];

        return $all["127.0.0.1:{$this->port}"] ?? [];
    }

    private function client(): Memcached
    {
        if ($this->memcached === null) {
            $m = new Memcached();
            $m->setOption(Memcached::OPT_COMPRESSION, $this->compressed);
            $m->addServer('127.0.0.1', $this->port);
            $this->memcached = $m;
        }

        return $this->memcached;
    }
}
