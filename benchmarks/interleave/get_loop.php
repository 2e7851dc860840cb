<?php
// One process of benchmarks/interleave/run.sh: the InMemoryGetString data (1,000 strings of 16-64 bytes
// under 14-16 byte keys, as Dataset::strings builds them), read in a tight loop of Shm\Table::get().
// Prints the best of 7 timed passes, in ns per get, and fails if a get misses or returns a wrong value.
use Shm\Table;

$loops = (int) ($argv[1] ?? 400);
if ($loops < 1) {
    fwrite(STDERR, "usage: get_loop.php [LOOPS]\n");
    exit(2);
}
$keys = $values = [];
for ($i = 0; $i < 1000; $i++) {
    $keys[$i] = "bench:string:$i";
    $values[$i] = substr(str_repeat(hash('sha256', "value:$i"), 2), 0, 16 + crc32("length:$i") % 49);
    if (!Table::set($keys[$i], $values[$i])) {
        fwrite(STDERR, "set($keys[$i]) failed\n");
        exit(1);
    }
}
foreach ($keys as $i => $k) {
    if (Table::get($k) !== $values[$i]) {
        fwrite(STDERR, "get($k) returned a wrong value\n");
        exit(1);
    }
}
$best = PHP_INT_MAX;
for ($pass = 0; $pass < 7; $pass++) {
    $t = hrtime(true);
    for ($j = 0; $j < $loops; $j++) {
        foreach ($keys as $k) {
            Table::get($k);
        }
    }
    $best = min($best, hrtime(true) - $t);
}
printf("%.2f\n", $best / ($loops * 1000));
