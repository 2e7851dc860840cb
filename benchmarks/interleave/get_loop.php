<?php
// One process of benchmarks/interleave/run.sh: the data of the InMemoryGetString case (taken from the case
// file itself), read in a tight loop of Shm\Table::get(). Prints the best of 7 timed passes, in ns per
// get, and fails if a get misses or returns a wrong value.
declare(strict_types=1);

use Shm\Table;

require __DIR__ . '/../Support/autoload.php';

$loops = (int) ($argv[1] ?? 400);
if ($loops < 1) {
    fwrite(STDERR, "usage: get_loop.php [LOOPS]\n");
    exit(2);
}
$dataset = (require __DIR__ . '/../Cases/BenchmarkInMemoryGetString.php')->dataset;
$keys = $dataset->keys;
foreach ($keys as $i => $k) {
    if (!Table::set($k, $dataset->values[$i])) {
        fwrite(STDERR, "set($k) failed\n");
        exit(1);
    }
}
foreach ($keys as $i => $k) {
    if (Table::get($k) !== $dataset->values[$i]) {
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
printf("%.2f\n", $best / ($loops * count($keys)));
