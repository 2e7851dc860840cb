<?php
/*
 * One PHP process for ops.sh: store what OPERATION needs, then run OPERATION over KEYS keys ROUNDS times
 * ("op"), or walk the same loop without the call ("loop"). ops.sh runs both under callgrind; the
 * difference over ROUNDS * KEYS is the instructions one call costs, from the PHP call on.
 *
 *   php -d extension=table.so ops.php SUBJECT OPERATION ROUNDS op|loop
 *
 * SUBJECT: table (Shm\Table) | apcu (APCu's own apcu_*(), the table not loaded) | apcu-table (the same
 * apcu_*() calls served by table.apcu_compat=1, APCu not loaded). Each is checked to be what it names.
 * OPERATION:
 *   get-record    get() of a meteorite record (benchmarks/data/meteorites.json), a hit
 *   get-string    get() of a 16-byte string, a hit
 *   set-record    set() of a meteorite record over an existing key
 *   increment     increment() of an existing integer by 1 (apcu_inc)
 *   get-zero-copy get() of a record with table.zero_copy=1 (ops.sh sets it): from the second round on,
 *                 a key this process already holds (table only)
 * Every get must be a hit and every write succeed, or this would measure something else: it exits 1.
 */
use Shm\Table;

const KEYS = 1000;

[, $subject, $operation, $rounds, $mode] = $argv + [null, 'table', 'get-record', '20', 'op'];
$rounds = (int) $rounds;
$records = json_decode(file_get_contents(__DIR__ . '/../data/meteorites.json'), true, 512, JSON_THROW_ON_ERROR);
$keys = [];
for ($i = 0; $i < KEYS; $i++) {
    $keys[] = "k:$i";
}
$apcu = $subject === 'apcu' || $subject === 'apcu-table';
// Measure the API that the subject names, nothing else: APCu's own apcu_*() without the table, or the
// table's (its "apcu" namespace holds what apcu_store() wrote) without APCu.
$served = match ($subject) {
    'table' => class_exists(Table::class),
    'apcu' => function_exists('apcu_fetch') && !extension_loaded('table'),
    'apcu-table' => function_exists('apcu_fetch') && extension_loaded('table') && (bool) ini_get('table.apcu_compat'),
    default => throw new ValueError("unknown subject $subject"),
};
if (!$served) {
    fwrite(STDERR, "ops.php: this PHP does not serve $subject\n");
    exit(1);
}
$value = match ($operation) {
    'get-record', 'set-record', 'get-zero-copy' => fn (int $i) => $records[$i % count($records)],
    'get-string' => fn (int $i) => str_pad("v$i", 16, '.'),
    'increment' => fn (int $i) => $i,
    default => throw new ValueError("unknown operation $operation"),
};
// A write reads the precise clock, a few instructions more, only in the last 50 ms of a wall-clock second
// (core/clock_posix.c). This run is short enough to fall wholly inside that window (CI's PHP 8.4 increment
// counted 383 against 374) or outside it, so it starts just after a second begins, with the same calls in
// both modes: its writes then read the coarse clock only, as 19 of 20 do.
usleep(1000000 - (int) (fmod(microtime(true), 1.0) * 1000000) + 1000);
foreach ($keys as $i => $key) {
    $ok = $apcu ? apcu_store($key, $value($i)) : Table::set($key, $value($i));
    if (!$ok) {
        fwrite(STDERR, "ops.php: storing $key failed\n");
        exit(1);
    }
}
if ($subject === 'apcu-table' && Table::get($keys[0], 'apcu') !== $value(0)) {
    fwrite(STDERR, "ops.php: apcu_store() did not write the table's \"apcu\" namespace\n");
    exit(1);
}
$done = 0;
$write = $operation === 'set-record' ? array_map($value, range(0, KEYS - 1)) : [];
for ($r = 0; $r < $rounds; $r++) {
    if ($mode === 'loop') {
        foreach ($keys as $i => $key) {
            $done += $key !== '';
        }
        continue;
    }
    switch ($operation) {
        case 'get-record':
        case 'get-string':
        case 'get-zero-copy':
            if ($apcu) {
                foreach ($keys as $i => $key) {
                    $done += apcu_fetch($key) !== false;
                }
            } else {
                foreach ($keys as $i => $key) {
                    $done += Table::get($key) !== null;
                }
            }
            break;
        case 'set-record':
            if ($apcu) {
                foreach ($keys as $i => $key) {
                    $done += apcu_store($key, $write[$i]);
                }
            } else {
                foreach ($keys as $i => $key) {
                    $done += Table::set($key, $write[$i]);
                }
            }
            break;
        case 'increment':
            if ($apcu) {
                foreach ($keys as $i => $key) {
                    $done += apcu_inc($key) !== false;
                }
            } else {
                foreach ($keys as $i => $key) {
                    $done += Table::increment($key) !== false;
                }
            }
            break;
    }
}
if ($done !== KEYS * $rounds) {
    fwrite(STDERR, "ops.php: $done of " . KEYS * $rounds . " calls succeeded\n");
    exit(1);
}
if ($operation === 'get-zero-copy' && $mode === 'op' && Table::stats()['zero_copy_reads'] < KEYS * ($rounds - 1)) {
    fwrite(STDERR, "ops.php: the zero-copy gets were not zero-copy (" . Table::stats()['zero_copy_reads'] . " reads)\n");
    exit(1);
}
