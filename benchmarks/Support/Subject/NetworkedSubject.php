<?php

declare(strict_types=1);

namespace Shm\Bench\Subject;

/** A subject behind a network connection; in-memory subjects exchange 0 bytes. */
interface NetworkedSubject extends Subject
{
    /**
     * A running total of the bytes all clients exchanged with the server, less this probe's own traffic,
     * so that the difference of two calls is what the workers sent and received in between.
     */
    public function trafficBytes(): int;
}
