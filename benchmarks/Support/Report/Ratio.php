<?php

declare(strict_types=1);

namespace Shm\Bench\Report;

/**
 * The speed of one subject relative to another measured in the same run, e.g. Table/APCu(php) on
 * InMemoryGet with 4 workers. Ratios cancel out the machine, so they compare across runs and hosts
 * far better than absolute IOPS do.
 */
final readonly class Ratio
{
    public function __construct(
        public string $case,
        public int $workers,
        public string $subject,
        public string $reference,
    ) {
    }

    /**
     * Among the in-memory subjects (Redis is too noisy a yardstick on a shared host): where Table ran,
     * Table against every other one; elsewhere, every one against the slowest.
     *
     * @return list<self>
     */
    public static function defaults(ResultFile $file): array
    {
        $ratios = [];
        foreach ($file->groups() as $case => $byWorkers) {
            foreach ($byWorkers as $workers => $all) {
                $subjects = array_values(array_filter($all, static fn (string $subject): bool => $file->network($case, $workers, $subject) === 0));
                $pairs = in_array('Table', $subjects, true)
                    ? array_map(static fn (string $other): array => ['Table', $other], array_diff($subjects, ['Table']))
                    : array_map(static fn (string $other): array => [$other, $subjects[0]], array_slice($subjects, 1));
                foreach ($pairs as [$subject, $reference]) {
                    $ratios[] = new self($case, $workers, $subject, $reference);
                }
            }
        }

        return $ratios;
    }

    public function label(): string
    {
        return "{$this->subject}/{$this->reference}";
    }

    public function in(ResultFile $file): ?float
    {
        $subject = $file->median($this->case, $this->workers, $this->subject);
        $reference = $file->median($this->case, $this->workers, $this->reference);

        return $subject === null || !$reference ? null : $subject / $reference;
    }
}
