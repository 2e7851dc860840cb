<?php

declare(strict_types=1);

namespace Shm\Bench\Run;

use Shm\Bench\BenchmarkFailure;
use Shm\Bench\Log;

/**
 * The directory (table.segment_dir) of a Table(segment) run's named segment: <base>/table-bench.<pid>.<hex>,
 * with <base> /dev/shm where writable (where php-fpm's segments live: memory, not disk), else the temp dir;
 * the segment is named bench.<pid>.<hex> after it, so its file is <directory>/php-table.bench.<pid>.<hex>.
 * It is made fresh (mode 0700, failing if it exists) before each second PHP and removed with the segment
 * file after it, however that ended. The runner installs no signal handler, so a run killed by a signal
 * leaves one behind (a 64M segment is 64 MiB of memory in /dev/shm); the pid in its name lets the next
 * run remove it once that pid is gone.
 */
final readonly class SegmentDirectory
{
    private const PREFIX = 'table-bench.';

    private function __construct(public string $base, public string $path)
    {
    }

    public static function choose(): self
    {
        $base = is_dir('/dev/shm') && is_writable('/dev/shm') ? '/dev/shm' : rtrim(sys_get_temp_dir(), '/');

        return new self($base, sprintf('%s/%s%d.%s', $base, self::PREFIX, getmypid(), bin2hex(random_bytes(4))));
    }

    /** The table.segment that lives here. */
    public function segment(): string
    {
        return 'bench.' . substr(basename($this->path), strlen(self::PREFIX));
    }

    /** The segment's file, as the extension names it. */
    public function file(): string
    {
        return "{$this->path}/php-table.{$this->segment()}";
    }

    public function create(): void
    {
        if (!@mkdir($this->path, 0700)) {
            throw new BenchmarkFailure("cannot create the segment directory {$this->path}: " . (error_get_last()['message'] ?? 'mkdir failed'));
        }
    }

    /** Removes the directory and the files in it (the segment file); null when done, else what is left. */
    public function remove(): ?string
    {
        if (!file_exists($this->path)) {
            return null;
        }
        $left = [];
        foreach (scandir($this->path) ?: [] as $entry) {
            $file = "{$this->path}/$entry";
            if ($entry !== '.' && $entry !== '..' && (is_dir($file) && !is_link($file) || !@unlink($file))) {
                $left[] = $entry;
            }
        }
        if ($left !== [] || !@rmdir($this->path)) {
            return sprintf('could not remove the segment directory %s%s', $this->path, $left === [] ? '' : ' (left: ' . implode(', ', $left) . ')');
        }

        return null;
    }

    /** Removes the directories that runs now gone left in the base directory (same user, pid not running). */
    public function sweep(Log $log): void
    {
        foreach (glob("{$this->base}/" . self::PREFIX . '*') ?: [] as $path) {
            if (preg_match('/\.(\d+)\.[0-9a-f]+$/', $path, $match) !== 1 || is_link($path) || !is_dir($path)) {
                continue;
            }
            $pid = (int) $match[1];
            // posix_kill(pid, 0) fails with ESRCH only when no such process exists (EPERM: another user's).
            $gone = $pid !== getmypid() && !posix_kill($pid, 0) && posix_get_last_error() === PCNTL_ESRCH;
            if ($gone && fileowner($path) === posix_geteuid()) {
                $problem = (new self($this->base, $path))->remove();
                $log->warn($problem ?? "removed $path, the segment directory of an earlier run (pid $pid) that did not end normally");
            }
        }
    }
}
