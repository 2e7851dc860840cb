<?php

declare(strict_types=1);

namespace Shm\Bench\Worker;

use Shm\Bench\BenchmarkFailure;

/**
 * Forks workers with pcntl_fork, holds them at a barrier, releases them all at once and reaps every one.
 *
 * Each worker has a socket pair with the runner for "ready" and its report; all share one more pair as
 * the barrier, whose runner end is closed to release them. No signal handler is installed (so nothing
 * trips zend.signal_check), every pid is reaped with pcntl_waitpid, and a worker that does not answer,
 * or does not exit after answering, is SIGKILLed and reported. Deliberately no destructor: forked
 * workers hold a copy of this object, and their exit must not act on it.
 */
final class WorkerGroup
{
    private const READY_TIMEOUT = 30.0;
    private const REPORT_GRACE = 30.0;
    private const EXIT_TIMEOUT = 10.0;

    /** @var array<int, int> worker index => pid, until reaped */
    private array $pids = [];
    /** @var array<int, resource> worker index => the runner's end of its channel */
    private array $channels = [];

    /** @param resource $barrier the runner's end of the barrier */
    private function __construct(private $barrier)
    {
    }

    /** Forks $count workers and returns once all of them are prepared and waiting at the barrier. */
    public static function fork(int $count, WorkerTask $task): self
    {
        [$barrier, $workersBarrier] = self::socketPair();
        $group = new self($barrier);
        try {
            for ($worker = 0; $worker < $count; $worker++) {
                [$channel, $workersChannel] = self::socketPair();
                $pid = pcntl_fork();
                if ($pid === -1) {
                    throw new BenchmarkFailure('pcntl_fork() failed: ' . pcntl_strerror(pcntl_get_last_error()));
                }
                if ($pid === 0) {
                    fclose($channel);
                    fclose($barrier);
                    exit(WorkerProcess::run($task, $worker, $workersChannel, $workersBarrier));
                }
                fclose($workersChannel);
                $group->pids[$worker] = $pid;
                $group->channels[$worker] = $channel;
            }
            fclose($workersBarrier);
            foreach ($group->readLines(self::READY_TIMEOUT, 'get ready') as $worker => $line) {
                if ($line !== 'ready') {
                    throw new BenchmarkFailure("worker $worker failed before the start: " . self::describe($line));
                }
            }
        } catch (\Throwable $e) {
            $group->killRemaining();
            throw $e;
        }

        return $group;
    }

    /**
     * Opens the barrier, waits for every report and reaps every worker.
     *
     * @return list<WorkerReport>
     */
    public function run(float $duration): array
    {
        fclose($this->barrier);
        $reports = [];
        $errors = [];
        foreach ($this->readLines($duration + self::REPORT_GRACE, 'report') as $worker => $line) {
            $fields = json_decode($line, true);
            if (is_array($fields) && isset($fields['ops'])) {
                $reports[] = WorkerReport::fromArray($fields);
            } else {
                $errors[] = "worker $worker: " . self::describe($line);
            }
        }
        $errors = [...$errors, ...$this->reap()];
        if ($errors !== []) {
            throw new BenchmarkFailure(implode('; ', $errors));
        }

        return $reports;
    }

    /** SIGKILLs and reaps the workers not reaped yet; for failure paths, a no-op after run(). */
    public function killRemaining(): void
    {
        foreach ($this->pids as $worker => $pid) {
            posix_kill($pid, SIGKILL);
            pcntl_waitpid($pid, $status);
            unset($this->pids[$worker]);
        }
    }

    /** @return array<int, string> worker index => its next line, without the newline ('' on EOF) */
    private function readLines(float $timeout, string $what): array
    {
        $deadline = hrtime(true) + (int) ($timeout * 1e9);
        $pending = $this->channels;
        $lines = [];
        while ($pending !== []) {
            $left = intdiv(max(0, $deadline - hrtime(true)), 1000);
            $readable = $pending;
            $none = null;
            $ready = $left > 0 ? stream_select($readable, $none, $none, intdiv($left, 1_000_000), $left % 1_000_000) : 0;
            if ($ready === false) {
                throw new BenchmarkFailure("stream_select() failed while waiting for the workers to $what");
            }
            if ($ready === 0) {
                throw new BenchmarkFailure(sprintf(
                    'worker(s) %s did not %s within %.0f s',
                    implode(', ', array_keys($pending)),
                    $what,
                    $timeout,
                ));
            }
            foreach ($readable as $worker => $channel) {
                $lines[$worker] = rtrim((string) fgets($channel), "\n");
                unset($pending[$worker]);
            }
        }
        ksort($lines);

        return $lines;
    }

    /**
     * Waits for every worker to exit and checks that each exited with status 0 and none is left over.
     *
     * @return list<string> what went wrong
     */
    private function reap(): array
    {
        $deadline = hrtime(true) + (int) (self::EXIT_TIMEOUT * 1e9);
        $failures = [];
        while ($this->pids !== []) {
            foreach ($this->pids as $worker => $pid) {
                $reaped = pcntl_waitpid($pid, $status, WNOHANG);
                if ($reaped === 0) {
                    continue;
                }
                unset($this->pids[$worker]);
                if ($reaped !== $pid) {
                    $failures[] = "worker $worker (pid $pid) could not be waited for";
                } elseif (!pcntl_wifexited($status)) {
                    $failures[] = "worker $worker (pid $pid) was killed by signal " . pcntl_wtermsig($status);
                } elseif (pcntl_wexitstatus($status) !== 0) {
                    $failures[] = "worker $worker (pid $pid) exited with status " . pcntl_wexitstatus($status);
                }
            }
            if ($this->pids !== [] && hrtime(true) > $deadline) {
                $failures[] = sprintf('worker(s) %s did not exit within %.0f s of reporting', implode(', ', array_keys($this->pids)), self::EXIT_TIMEOUT);
                $this->killRemaining();
            }
            if ($this->pids !== []) {
                usleep(1000);
            }
        }
        if (pcntl_waitpid(-1, $status, WNOHANG) !== -1) {
            $failures[] = 'a child process outlived its worker group';
        }

        return $failures;
    }

    private static function describe(string $line): string
    {
        if ($line === '') {
            return 'it exited without a word (crashed?)';
        }
        $fields = json_decode($line, true);

        return is_array($fields) && isset($fields['error']) ? (string) $fields['error'] : "unexpected output: $line";
    }

    /** @return array{resource, resource} */
    private static function socketPair(): array
    {
        $pair = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
        if ($pair === false) {
            throw new BenchmarkFailure('stream_socket_pair() failed');
        }

        return $pair;
    }
}
