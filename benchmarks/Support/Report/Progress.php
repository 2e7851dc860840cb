<?php

declare(strict_types=1);

namespace Shm\Bench\Report;

/**
 * One status line on a terminal while the runner works: case, subject, workers, iteration i of n, the
 * share done and an estimate of the time left, rewritten in place (carriage return) on stderr. It exists
 * only when stderr is a terminal (forTerminal() returns null otherwise, and with BENCH_NO_PROGRESS=1, which
 * the runner sets for the PHPs it starts itself), so logs and pipes never see it. The estimate is the mean
 * time of the iterations done so far times those left; before the first one, the planned duration.
 */
final class Progress
{
    private int $total = 0;
    private int $done = 0;
    private float $started;
    private bool $shown = false;

    /** @param resource $stream */
    private function __construct(private mixed $stream, private float $duration)
    {
        $this->started = microtime(true);
    }

    public static function forTerminal(float $duration): ?self
    {
        if (getenv('BENCH_NO_PROGRESS') === '1' || !stream_isatty(STDERR)) {
            return null;
        }

        return new self(STDERR, $duration);
    }

    /** The number of iterations (warmup included) the whole run will time. */
    public function plan(int $iterations): void
    {
        $this->total = $iterations;
    }

    /** Iteration $i of $n of $subject on $case with $workers workers is starting. */
    public function iteration(string $case, string $subject, int $workers, int $i, int $n): void
    {
        $this->show(sprintf('%s, %s, %d worker%s, iteration %d of %d', $case, $subject, $workers, $workers === 1 ? '' : 's', $i, $n));
    }

    /** Something that runs $iterations iterations without reporting each (a second PHP) is starting. */
    public function block(string $what): void
    {
        $this->show($what);
    }

    public function advance(int $iterations = 1): void
    {
        $this->done += $iterations;
    }

    public function show(string $what): void
    {
        $left = max(0, $this->total - $this->done);
        $per = $this->done > 0 ? (microtime(true) - $this->started) / $this->done : $this->duration;
        $pct = $this->total > 0 ? (int) floor(100 * $this->done / $this->total) : 0;
        $line = sprintf('[%3d%%] %s, %s left', $pct, $what, self::clock($left * $per));
        $width = max(20, (int) (getenv('COLUMNS') ?: 0) ?: 120) - 1;
        if (strlen($line) > $width) {
            $line = substr($line, 0, $width - 3) . '...';
        }
        fwrite($this->stream, "\r\033[K" . $line);
        $this->shown = true;
    }

    /** Erase the line, before anything else is written to the terminal. */
    public function clear(): void
    {
        if ($this->shown) {
            fwrite($this->stream, "\r\033[K");
            $this->shown = false;
        }
    }

    private static function clock(float $seconds): string
    {
        $s = (int) ceil($seconds);

        return $s >= 3600 ? sprintf('%d:%02d:%02d', intdiv($s, 3600), intdiv($s % 3600, 60), $s % 60) : sprintf('%d:%02d', intdiv($s, 60), $s % 60);
    }
}
