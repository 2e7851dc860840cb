<?php

declare(strict_types=1);

namespace Shm\Bench\Run;

use Shm\Bench\Benchmark;
use Shm\Bench\Log;
use Shm\Bench\Subject\ApcuSubject;

/**
 * APCu with another apc.serializer than this process has. The setting is PHP_INI_SYSTEM, so each case
 * runs in a second PHP (SecondPhp) started with this process's own options plus -d apc.serializer=...; its
 * rows join this run's report.
 */
final readonly class ApcuVariantParticipant implements Participant
{
    public function __construct(private string $serializer, private string $runner, private Log $log)
    {
    }

    public function name(): string
    {
        return "APCu({$this->serializer})";
    }

    public function family(): string
    {
        return 'APCu';
    }

    public function unavailableReason(): ?string
    {
        return (new ApcuSubject())->unavailableReason() ?? SecondPhp::unavailableReason();
    }

    public function version(): string
    {
        return (new ApcuSubject())->version();
    }

    public function settings(): array
    {
        return ['serializer' => $this->serializer];
    }

    public function unsupportedReason(Benchmark $case): ?string
    {
        return null;
    }

    public function measure(Benchmark $case, Plan $plan): array
    {
        return (new SecondPhp($this->runner, $this->log))
            ->run($this->name(), ['apc.serializer' => $this->serializer], ['--apcu-serializers', $this->serializer], $case, $plan, "apc.serializer={$this->serializer}")
            ->measurements($case->name, $this->name());
    }
}
