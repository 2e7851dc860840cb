<?php

declare(strict_types=1);

namespace Shm\Bench\Run;

use Shm\Bench\BenchmarkFailure;
use Shm\Bench\Log;
use Shm\Bench\Subject\ApcuSubject;
use Shm\Bench\Subject\RedisSubject;
use Shm\Bench\Subject\RelayTableSubject;
use Shm\Bench\Subject\SwooleTableSubject;
use Shm\Bench\Subject\TableSubject;
use Shm\Bench\Subject\YacSubject;

/** Every subject the runner knows, and the choice of those that run. */
final class Lineup
{
    /**
     * APCu runs once per serializer in $apcuSerializers: in this process for its own apc.serializer, in
     * a second PHP for any other; then APCu(table), APCu's code on table.apcu_compat=1, in a PHP without
     * APCu. With $tableSegment, Table(segment) follows Table, in a second PHP.
     *
     * @param list<string> $apcuSerializers
     * @return list<Participant> in running order
     */
    public static function all(array $apcuSerializers, bool $tableSegment, string $runner, Log $log): array
    {
        $apcu = [];
        if (ApcuSubject::onTable()) {
            // This PHP's apcu_*() are the table's (table.apcu_compat=1, no APCu): APCu(table) runs here,
            // and there is no APCu to run with other serializers.
            $apcu[] = new LocalParticipant(new ApcuSubject(), $log);
        } else {
            foreach ($apcuSerializers as $serializer) {
                $apcu[] = $serializer === ApcuSubject::serializer()
                    ? new LocalParticipant(new ApcuSubject(), $log)
                    : new ApcuVariantParticipant($serializer, $runner, $log);
            }
            // The same APCu code on a PHP without APCu and with table.apcu_compat=1.
            $apcu[] = new ApcuTableParticipant($runner, $log);
        }

        return [
            new LocalParticipant(new TableSubject(), $log),
            ...($tableSegment ? [new TableSegmentParticipant($runner, $log)] : []),
            ...$apcu,
            new LocalParticipant(new YacSubject(), $log),
            new LocalParticipant(new SwooleTableSubject(), $log),
            new LocalParticipant(new RelayTableSubject(), $log),
            new LocalParticipant(new RedisSubject(), $log),
        ];
    }

    /**
     * @param list<Participant> $participants
     * @return list<string> what --filter may name
     */
    public static function names(array $participants): array
    {
        $names = [];
        foreach ($participants as $participant) {
            $names[] = $participant->name();
            $names[] = $participant->family();
        }

        return array_values(array_unique($names));
    }

    /**
     * Those the filter selects and that can run here. One that cannot is skipped with a warning, unless
     * the filter named it or an option asked for it ($requested): then the run fails rather than quietly
     * leave it out.
     *
     * @param list<Participant> $participants
     * @param list<string>      $requested    names of participants an option asked for (--table-segment)
     * @return list<Participant>
     */
    public static function select(array $participants, SubjectFilter $filter, Log $log, array $requested = []): array
    {
        $selected = [];
        foreach ($participants as $participant) {
            if (!$filter->selects($participant)) {
                continue;
            }
            $reason = $participant->unavailableReason();
            if ($reason === null) {
                $selected[] = $participant;
            } elseif ($filter->names($participant)) {
                throw new BenchmarkFailure("{$participant->name()} was selected with --filter but cannot run: $reason");
            } elseif (in_array($participant->name(), $requested, true)) {
                throw new BenchmarkFailure("{$participant->name()} was asked for but cannot run: $reason");
            } else {
                $log->warn("skipping {$participant->name()}: $reason");
            }
        }
        if ($selected === []) {
            throw new BenchmarkFailure('no subject to run');
        }

        return $selected;
    }
}
