<?php

declare(strict_types=1);

namespace Shm\Bench\Run;

use Shm\Bench\UsageError;

/**
 * --filter: a comma list of subject names or families ("Table,APCu", case-insensitive), or a regular
 * expression matched against names: one that starts with "/" is taken as written ("/^APCu\(/"), any other
 * with regex metacharacters that is not a list of known names is wrapped as /.../i ("^(Table|Redis)$").
 * Only a list names subjects explicitly; an explicitly named subject that cannot run aborts the run.
 */
final readonly class SubjectFilter
{
    /** @param list<string> $names lower-cased */
    private function __construct(private ?string $pattern, private array $names)
    {
    }

    public static function everything(): self
    {
        return new self('/^/', []);
    }

    /** @param list<string> $known the names and families of every subject */
    public static function parse(string $filter, array $known): self
    {
        if (str_starts_with($filter, '/')) {
            return self::regex($filter);
        }
        $items = array_map(static fn (string $item): string => strtolower(trim($item)), explode(',', $filter));
        $unknown = array_diff($items, array_map('strtolower', $known));
        if ($unknown === []) {
            return new self(null, $items);
        }
        if (preg_match('/[\\\\^$.|?*+()\[\]{}]/', $filter) === 1) {
            return self::regex('/' . str_replace('/', '\/', $filter) . '/i');
        }

        throw new UsageError(sprintf('--filter: unknown subject %s; known: %s', implode(', ', $unknown), implode(', ', array_unique($known))));
    }

    public function selects(Participant $participant): bool
    {
        return $this->pattern === null
            ? $this->names($participant)
            : preg_match($this->pattern, $participant->name()) === 1;
    }

    public function names(Participant $participant): bool
    {
        return in_array(strtolower($participant->name()), $this->names, true)
            || in_array(strtolower($participant->family()), $this->names, true);
    }

    private static function regex(string $pattern): self
    {
        // preg_match() warns and returns false on a pattern it cannot compile.
        if (@preg_match($pattern, '') === false) {
            throw new UsageError("--filter: invalid regular expression $pattern");
        }

        return new self($pattern, []);
    }
}
