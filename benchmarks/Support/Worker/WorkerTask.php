<?php

declare(strict_types=1);

namespace Shm\Bench\Worker;

/** What a forked worker does: get ready before the barrier, then run once it opens. */
interface WorkerTask
{
    /** Runs in the worker right after the fork, before the barrier (e.g. opens its connection). */
    public function prepare(): void;

    /** Runs in the worker once every worker is ready and the barrier opens. */
    public function run(int $worker): WorkerReport;
}
