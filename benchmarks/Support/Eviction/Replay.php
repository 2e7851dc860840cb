<?php

declare(strict_types=1);

namespace Shm\Bench\Eviction;

/**
 * Replays a trace against one cache: get each key, and set it (to a value of the key's size) on a miss.
 * The hit ratio counts the operations after the first $trace->warmup, by when every cache is full.
 * Every $sampleEvery operations it reads the cache's entry count; a count that falls to less than half
 * of the previous sample is a wipe (APCu expunges everything when it is full). At the end it checks
 * which of the keys written are still held, so that the bytes evicted are measured the same way for
 * every cache: nothing is deleted and nothing expires, so every byte written and not held at the end
 * was evicted (or wiped).
 */
final class Replay
{
    /** @return array<string, int|float|string|null> */
    public static function run(Cache $cache, Trace $trace, int $sampleEvery = 1000): array
    {
        $sizes = [];
        $hits = $sets = $failed = $written = $wipes = $previous = $peak = 0;
        $evictionsBefore = $cache->evictions();
        $start = hrtime(true);
        foreach ($trace->ops as $i => $id) {
            $key = Trace::key($id);
            if ($cache->get($key)) {
                $hits += $i >= $trace->warmup;
            } else {
                $size = $sizes[$id] ??= $trace->size($id);
                $sets++;
                if ($cache->set($key, $trace->value($id, $size))) {
                    $written += $size;
                } else {
                    $failed++;
                }
            }
            if ($i % $sampleEvery === $sampleEvery - 1) {
                $count = $cache->count();
                if ($previous >= 100 && $count * 2 < $previous) {
                    $wipes++;
                }
                $previous = $count;
                $peak = max($peak, $count);
            }
        }
        $seconds = (hrtime(true) - $start) / 1e9;

        $keys = array_map([Trace::class, 'key'], array_keys($sizes));
        $held = $cache->held($keys);
        $heldBytes = $heldKeys = 0;
        foreach (array_keys($sizes) as $id) {
            if ($held[Trace::key($id)] ?? false) {
                $heldKeys++;
                $heldBytes += $sizes[$id];
            }
        }
        $evictions = $cache->evictions();
        $ops = count($trace->ops);
        $counted = $ops - $trace->warmup;

        return [
            'cache' => $cache->name(),
            'version' => $cache->version(),
            'ops' => $ops,
            'hits' => $hits,
            'counted' => $counted,
            'hit_ratio' => $counted > 0 ? $hits / $counted : 0.0,
            'sets' => $sets,
            'failed_sets' => $failed,
            'bytes_written' => $written,
            'bytes_held' => $heldBytes,
            'evicted_per_written' => $written ? ($written - $heldBytes) / $written : 0.0,
            'keys_held' => $heldKeys,
            'evictions' => $evictions === null ? null : $evictions - (int) $evictionsBefore,
            'keys_lost' => $sets - $failed - $heldKeys,
            'wipes' => $wipes,
            'peak_entries' => $peak,
            'seconds' => $seconds,
            'ops_per_second' => $seconds > 0 ? $ops / $seconds : 0.0,
            'extra' => method_exists($cache, 'extra') ? json_encode($cache->extra()) : null,
        ];
    }
}
