<?php

declare(strict_types=1);

namespace Shm\Bench\Worker;

use Throwable;

/**
 * The body of a forked worker. It says "ready" on its channel, blocks on the barrier socket until the
 * runner closes the other end (an EOF that reaches every worker at once), runs the task and writes its
 * report as one JSON line. It never throws: the caller turns the returned status into a plain exit().
 */
final class WorkerProcess
{
    /**
     * @param resource $channel this worker's end of its socket pair with the runner
     * @param resource $barrier the workers' end of the shared barrier socket pair
     */
    public static function run(WorkerTask $task, int $worker, $channel, $barrier): int
    {
        try {
            $task->prepare();
            fwrite($channel, "ready\n");
            fread($barrier, 1);
            $report = $task->run($worker);
            fwrite($channel, json_encode($report->toArray(), JSON_THROW_ON_ERROR) . "\n");

            return 0;
        } catch (Throwable $e) {
            $error = sprintf('%s: %s', $e::class, $e->getMessage());
            fwrite($channel, json_encode(['error' => $error], JSON_INVALID_UTF8_SUBSTITUTE) . "\n");

            return 1;
        }
    }
}
