<?php
/*
 * Repro: a fatal error (bailout) inside get()'s materialization leaves the process's read section open
 * until RSHUTDOWN, so while its shutdown functions (and destructors) run, no retired block can be freed
 * by anyone: with noeviction, writers in other processes get false; with lru/random they evict live
 * entries instead.
 *
 *   php -d extension=/abs/table.so -d table.memory=16M -d table.eviction_policy=noeviction \
 *       -d memory_limit=256M stress/repro/bailout_pins_reclamation.php
 *
 * Needs a PHP whose memory-limit error bails out of the allocation itself: 8.2.34 and older (e.g. the
 * debug PHP that .ci builds from Debian 12's PHP 8.2 source package). From 8.2.35 the error is delayed to a safe
 * point (or the process is ended with _exit(137)), so the bailout no longer happens inside get().
 * Expected output when fixed: "0 of 40 overwrites refused".
 */
use Shm\Table;

$a = [];
for ($i = 0; $i < 100000; $i++) {
    $a["key$i"] = "value number $i";
}
Table::set('big', $a);
unset($a);
register_shutdown_function(function () {
    ini_set('memory_limit', '256M');
    echo 'fatal: ', error_get_last()['message'] ?? '-', "\n";
    // Another process writes while this one is still in its shutdown functions.
    $pid = pcntl_fork();
    if ($pid === 0) {
        $refused = 0;
        for ($i = 0; $i < 40; $i++) {
            $refused += !Table::set('churn', str_repeat(chr(65 + $i % 26), 3 << 20));
        }
        $s = Table::stats();
        echo "child: $refused of 40 overwrites refused (retired bytes {$s['retired_bytes']}, oom {$s['oom']})\n";
        exit(0);
    }
    pcntl_waitpid($pid, $st);
});
gc_mem_caches();
ini_set('memory_limit', (string) (memory_get_usage(true) + (1 << 20)));
Table::get('big');
