<?php

declare(strict_types=1);

namespace Shm\Bench\Subject;

use Shm\Bench\Dataset;
use Swoole\Table;

/**
 * Swoole\Table: fixed columns in shared memory, sized before the fork. It cannot hold a PHP array, so
 * values go through serialize() into a string column, as an application would have to do; integer
 * counters live in an int column. The table is created per case in begin(), before the workers fork.
 */
final class SwooleTableSubject extends InMemorySubject implements CountingSubject
{
    private const KIND_SERIALIZED = 0;
    private const KIND_INTEGER = 1;

    private ?Table $table = null;

    public function name(): string
    {
        return 'SwooleTable';
    }

    public function unavailableReason(): ?string
    {
        return class_exists(Table::class) ? null : 'extension swoole is not loaded';
    }

    public function version(): string
    {
        return 'Swoole ' . phpversion('swoole');
    }

    public function settings(): array
    {
        return ['values' => 'serialize() into a string column'];
    }

    public function begin(Dataset $dataset): void
    {
        $longest = 1;
        foreach ($dataset->values as $value) {
            if (!is_int($value)) {
                $longest = max($longest, strlen(serialize($value)));
            }
        }
        $this->table = new Table(2 * $dataset->count());
        $this->table->column('kind', Table::TYPE_INT);
        $this->table->column('counter', Table::TYPE_INT);
        $this->table->column('value', Table::TYPE_STRING, $longest);
        $this->table->create();
    }

    public function store(string $key, mixed $value): bool
    {
        return is_int($value)
            ? $this->table->set($key, ['kind' => self::KIND_INTEGER, 'counter' => $value])
            : $this->table->set($key, ['kind' => self::KIND_SERIALIZED, 'value' => serialize($value)]);
    }

    public function read(string $key): array
    {
        $row = $this->table->get($key);
        if ($row === false) {
            return [false, null];
        }

        return [true, $row['kind'] === self::KIND_INTEGER ? $row['counter'] : unserialize($row['value'])];
    }

    public function end(Dataset $dataset): void
    {
        $this->table->destroy();
        $this->table = null;
    }

    public function getBatch(array $keys, int $from, int $count): int
    {
        $table = $this->table;
        $size = count($keys);
        $misses = 0;
        for ($i = $from, $end = $from + $count; $i < $end; $i++) {
            $serialized = $table->get($keys[$i % $size], 'value');
            if ($serialized === false || unserialize($serialized) === false) {
                $misses++;
            }
        }

        return $misses;
    }

    public function setBatch(array $keys, array $values, int $from, int $count): int
    {
        $table = $this->table;
        $size = count($keys);
        $failures = 0;
        for ($i = $from, $end = $from + $count; $i < $end; $i++) {
            if (!$table->set($keys[$i % $size], ['value' => serialize($values[$i % $size])])) {
                $failures++;
            }
        }

        return $failures;
    }

    public function incrementBatch(array $keys, int $from, int $count): int
    {
        $table = $this->table;
        $size = count($keys);
        $failures = 0;
        for ($i = $from, $end = $from + $count; $i < $end; $i++) {
            if ($table->incr($keys[$i % $size], 'counter') === false) {
                $failures++;
            }
        }

        return $failures;
    }
}
