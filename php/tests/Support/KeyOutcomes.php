<?php

declare(strict_types=1);

namespace Shm\Cache\Tests\Support;

use Psr\Cache\CacheItemPoolInterface;

/**
 * The same key tests for any PSR-6 pool, so that a Symfony adapter can be compared with ApcuAdapter on
 * the Symfony installed: for each key, what save/get/has/delete do, or which exception is thrown.
 */
final class KeyOutcomes
{
    /** Keys valid under PSR-6, keys with each reserved character, the empty key, binary and long keys. */
    public const KEYS = ['user.42', 'user:42', 'a{b}', 'a(b)', 'a/b', 'a\\b', '@x', '', "nul\0byte", 'é', 'long'];

    /** @return array<string, string> key (JSON) => outcome */
    public static function of(CacheItemPoolInterface $pool): array
    {
        $out = [];
        foreach (self::KEYS as $key) {
            if ($key === 'long') {
                $key = str_repeat('k', 70000);   // longer than Shm\Table's 65,535-byte keys
            }
            try {
                $saved = $pool->save($pool->getItem($key)->set(['for' => $key]));
                $item = $pool->getItem($key);
                $outcome = sprintf(
                    'save=%s hit=%s same=%s has=%s delete=%s after=%s',
                    var_export($saved, true),
                    var_export($item->isHit(), true),
                    var_export($item->get() === ['for' => $key], true),
                    var_export($pool->hasItem($key), true),
                    var_export($pool->deleteItem($key), true),
                    var_export($pool->hasItem($key), true)
                );
                $many = iterator_to_array($pool->getItems([$key, 'other']));
                $outcome .= ' items=' . implode(',', array_map('strlen', array_keys($many)));
            } catch (\Throwable $e) {
                $outcome = \get_class($e) . ': ' . $e->getMessage();
            }
            $out[json_encode(\strlen($key) > 20 ? \strlen($key) . ' bytes' : $key)] = $outcome;
        }
        return $out;
    }
}
