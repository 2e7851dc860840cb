<?php

declare(strict_types=1);

namespace Shm\Bench\Report;

use Shm\Bench\UsageError;

/**
 * A gate --metric: CASE.SUBJECT[/REFERENCE][@WORKERS], e.g. "InMemoryGet.Table", "*.Table/APCu(php)@4".
 * CASE may be "*"; SUBJECT and REFERENCE are names or families ("APCu" stands for each APCu variant).
 * Without REFERENCE the subject is compared with the slowest subject of the base run; without WORKERS
 * every worker count counts.
 */
final class Metric
{
    /** @return list<Ratio> the ratios $spec tracks in $base */
    public static function resolve(string $spec, ResultFile $base): array
    {
        if (preg_match('~^(?<case>\*|[^.]+)\.(?<subject>[^/@]+)(?:/(?<reference>[^@]+))?(?:@(?<workers>\d+))?$~', $spec, $parts) !== 1) {
            throw new UsageError("--metric=$spec: expected CASE.SUBJECT[/REFERENCE][@WORKERS]");
        }
        $ratios = [];
        foreach ($base->groups() as $case => $byWorkers) {
            if ($parts['case'] !== '*' && strcasecmp($parts['case'], $case) !== 0) {
                continue;
            }
            foreach ($byWorkers as $workers => $subjects) {
                if (($parts['workers'] ?? '') !== '' && (int) $parts['workers'] !== $workers) {
                    continue;
                }
                $references = ($parts['reference'] ?? '') === '' ? [$subjects[0]] : self::matching($parts['reference'], $subjects);
                foreach (self::matching($parts['subject'], $subjects) as $subject) {
                    foreach (array_diff($references, [$subject]) as $reference) {
                        $ratios[] = new Ratio($case, $workers, $subject, $reference);
                    }
                }
            }
        }
        if ($ratios === []) {
            throw new UsageError("--metric=$spec selects no ratio in {$base->origin}: check CASE, SUBJECT and WORKERS; a SUBJECT that is the slowest needs a /REFERENCE");
        }

        return $ratios;
    }

    /**
     * @param list<string> $subjects
     * @return list<string> those named $name, or of family $name
     */
    private static function matching(string $name, array $subjects): array
    {
        return array_values(array_filter(
            $subjects,
            static fn (string $subject): bool => strcasecmp($subject, $name) === 0 || strcasecmp(preg_replace('/\(.*\)$/', '', $subject), $name) === 0,
        ));
    }
}
