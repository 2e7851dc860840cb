<?php

declare(strict_types=1);

namespace Shm\Bench;

use RuntimeException;

/**
 * The keys and values every subject of a case is seeded with. All keys start with "bench:" so that
 * cleaning up after a case touches nothing else in a shared Redis or cache.
 */
final readonly class Dataset
{
    /**
     * @param list<string> $keys
     * @param list<mixed>  $values $values[$i] belongs to $keys[$i]
     */
    private function __construct(public string $description, public array $keys, public array $values)
    {
    }

    /** The 1,000 NASA meteorite landing records of data/meteorites.json, one nested array per key. */
    public static function meteorites(): self
    {
        $file = dirname(__DIR__) . '/data/meteorites.json';
        $json = is_readable($file) ? file_get_contents($file) : false;
        if ($json === false) {
            throw new RuntimeException("cannot read the data set $file");
        }
        $records = json_decode($json, true, 512, JSON_THROW_ON_ERROR);
        $keys = array_map(static fn (array $record): string => "bench:meteorite:{$record['id']}", $records);

        return new self(sprintf('%s meteorite records (nested arrays)', number_format(count($records))), $keys, $records);
    }

    /** $count printable strings with lengths spread over $minLength..$maxLength; the same on every run. */
    public static function strings(int $count, int $minLength, int $maxLength): self
    {
        $keys = [];
        $values = [];
        for ($i = 0; $i < $count; $i++) {
            $length = $minLength + crc32("length:$i") % ($maxLength - $minLength + 1);
            $keys[] = "bench:string:$i";
            $values[] = substr(str_repeat(hash('sha256', "value:$i"), 2), 0, $length);
        }

        return new self(sprintf('%s strings of %d-%d bytes', number_format($count), $minLength, $maxLength), $keys, $values);
    }

    /** $count integer counters starting at 0. */
    public static function counters(int $count): self
    {
        $keys = [];
        for ($i = 0; $i < $count; $i++) {
            $keys[] = "bench:counter:$i";
        }

        return new self(sprintf('%s integer counters', number_format($count)), $keys, array_fill(0, $count, 0));
    }

    public function count(): int
    {
        return count($this->keys);
    }
}
