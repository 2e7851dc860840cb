<?php
/*
 * One PHP process: store 2,000 short strings under keys of LENGTH bytes, then either get() every key
 * ROUNDS times ("get") or walk the same loop without the get() ("loop"). key_length.sh runs both under
 * callgrind; the difference over ROUNDS * 2,000 is the instructions one get() of a hit costs.
 * Usage: php -d extension=table.so key_length.php LENGTH ROUNDS get|loop
 */
use Shm\Table;

[, $length, $rounds, $mode] = $argv + [null, '16', '20', 'get'];
$length = max(8, (int) $length);
$keys = [];
for ($i = 0; $i < 2000; $i++) {
    $keys[] = $key = str_pad("k$i:", $length, 'x');
    Table::set($key, "value-$i");
}
$hits = 0;
for ($r = 0; $r < (int) $rounds; $r++) {
    if ($mode === 'get') {
        foreach ($keys as $key) {
            $hits += Table::get($key) !== null;
        }
    } else {
        foreach ($keys as $key) {
            $hits += $key !== '';
        }
    }
}
// Every key must be a hit, or this would measure misses.
if ($hits !== 2000 * (int) $rounds) {
    fwrite(STDERR, "key_length.php: $hits of " . 2000 * (int) $rounds . " were hits\n");
    exit(1);
}
