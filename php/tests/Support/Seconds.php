<?php

declare(strict_types=1);

namespace Shm\Cache\Tests\Support;

/**
 * TTLs are whole seconds on the table's clock: a key stored with a TTL of N answers ttl() with N, less one
 * for every second boundary that clock has crossed since. A quick machine crosses none or one between a
 * store and the ttl() after it; a loaded one may be kept off the CPU for seconds in between. A test asserts
 * N - Seconds::crossed($since) <= ttl() <= N: as tight as the time that passed allows, and never a bound
 * on how long that time was.
 */
final class Seconds
{
    /** A point in time to measure from (before the store). */
    public static function since(): int
    {
        return hrtime(true);
    }

    /** The most second boundaries any clock of whole seconds can have crossed since $since. */
    public static function crossed(int $since): int
    {
        return intdiv(hrtime(true) - $since, 1_000_000_000) + 1;
    }
}
