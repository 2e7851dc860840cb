<?php

declare(strict_types=1);

namespace Shm\Bench\Subject;

use Shm\Bench\Dataset;
use Yac;

/** Yac (lock-free shared memory cache). It has no increment, so it sits out increment cases. */
final class YacSubject extends InMemorySubject
{
    private ?Yac $yac = null;

    public function name(): string
    {
        return 'Yac';
    }

    public function unavailableReason(): ?string
    {
        if (!extension_loaded('yac')) {
            return 'extension yac is not loaded';
        }
        if (!ini_get('yac.enable')) {
            return 'yac.enable=0';
        }
        if (PHP_SAPI === 'cli' && !ini_get('yac.enable_cli')) {
            return 'yac.enable_cli=0';
        }

        return null;
    }

    public function version(): string
    {
        return 'Yac ' . phpversion('yac');
    }

    public function settings(): array
    {
        return ['serializer' => (string) ini_get('yac.serializer') ?: 'php'];
    }

    public function store(string $key, mixed $value): bool
    {
        return (bool) $this->yac()->set($key, $value);
    }

    public function read(string $key): array
    {
        $value = $this->yac()->get($key);

        return [$value !== false, $value];
    }

    public function end(Dataset $dataset): void
    {
        $this->yac()->delete($dataset->keys);
    }

    public function getBatch(array $keys, int $from, int $count): int
    {
        $yac = $this->yac();
        $size = count($keys);
        $misses = 0;
        for ($i = $from, $end = $from + $count; $i < $end; $i++) {
            if ($yac->get($keys[$i % $size]) === false) {
                $misses++;
            }
        }

        return $misses;
    }

    public function setBatch(array $keys, array $values, int $from, int $count): int
    {
        $yac = $this->yac();
        $size = count($keys);
        $failures = 0;
        for ($i = $from, $end = $from + $count; $i < $end; $i++) {
            if (!$yac->set($keys[$i % $size], $values[$i % $size])) {
                $failures++;
            }
        }

        return $failures;
    }

    private function yac(): Yac
    {
        return $this->yac ??= new Yac();
    }
}
