<?php

declare(strict_types=1);

namespace Shm\Bench;

use Shm\Bench\Run\Participant;

/** The machine, the PHP and the subjects a run measured: the report header and the JSON "environment". */
final readonly class Environment
{
    /** @param array<string, array{version: string, settings: array<string, string>}> $subjects */
    private function __construct(
        public string $cpuModel,
        public int $cores,
        public int $threads,
        public string $architecture,
        public string $os,
        public string $phpVersion,
        public bool $opcache,
        public bool $jit,
        public bool $xdebug,
        public ?string $gitRevision,
        public array $subjects,
    ) {
    }

    /** @param list<Participant> $participants */
    public static function detect(array $participants, string $repository): self
    {
        [$model, $cores, $threads] = self::cpu();
        $opcache = function_exists('opcache_get_status') ? (opcache_get_status(false) ?: []) : [];
        $subjects = [];
        foreach ($participants as $participant) {
            $subjects[$participant->name()] = ['version' => $participant->version(), 'settings' => $participant->settings()];
        }

        return new self(
            $model,
            $cores,
            $threads,
            php_uname('m'),
            php_uname('s') . ' ' . php_uname('r'),
            PHP_VERSION,
            (bool) ($opcache['opcache_enabled'] ?? false),
            (bool) ($opcache['jit']['on'] ?? false),
            extension_loaded('xdebug'),
            self::gitRevision($repository),
            $subjects,
        );
    }

    /** @return array<string, mixed> */
    public function toArray(): array
    {
        return [
            'cpu' => ['model' => $this->cpuModel, 'cores' => $this->cores, 'threads' => $this->threads, 'arch' => $this->architecture],
            'os' => $this->os,
            'php' => ['version' => $this->phpVersion, 'opcache' => $this->opcache, 'jit' => $this->jit, 'xdebug' => $this->xdebug],
            'git' => $this->gitRevision,
            'subjects' => $this->subjects,
        ];
    }

    /** @return array{string, int, int} model, physical cores, hardware threads */
    private static function cpu(): array
    {
        $info = is_readable('/proc/cpuinfo') ? (string) file_get_contents('/proc/cpuinfo') : '';
        preg_match('/^model name\s*:\s*(.+)$/m', $info, $model);
        $threads = preg_match_all('/^processor\s*:/m', $info);
        preg_match_all('/^physical id\s*:\s*(\d+)\s*$.*?^core id\s*:\s*(\d+)\s*$/ms', $info, $ids, PREG_SET_ORDER);
        $cores = count(array_unique(array_map(static fn (array $id): string => "$id[1]:$id[2]", $ids)));

        return [trim($model[1] ?? 'unknown CPU'), $cores ?: $threads, $threads];
    }

    private static function gitRevision(string $repository): ?string
    {
        $process = proc_open(['git', '-C', $repository, 'rev-parse', 'HEAD'], [1 => ['pipe', 'w'], 2 => ['file', '/dev/null', 'w']], $pipes);
        if (!is_resource($process)) {
            return null;
        }
        $revision = trim((string) stream_get_contents($pipes[1]));
        fclose($pipes[1]);

        return proc_close($process) === 0 && $revision !== '' ? $revision : null;
    }
}
