<?php
/*
 * Repro: once a writer has waited in vain for a reader (hdr->stuck_epoch = that reader's epoch), a reader
 * that then dies inside its read section is never reaped, and every later write that needs memory fails
 * at once, in every process, for good (until the slots run out and a slot claim reaps them). Reads work.
 *
 *   php -d extension=/abs/table.so -d table.memory=4M -d table.eviction_policy=noeviction \
 *       stress/repro/dead_reader_after_stuck_wedges_writes.php
 *
 * Found by stress/chaos.php -d table.memory=4M --allow-evictions (about 1 run in 10: a worker descheduled
 * inside a read for 200 ms, then SIGKILLed there). Cause, core/evict.c tbl_alloc_entry(): the
 * `min == stuck_epoch` early return comes before the first wait iteration, and dead readers are only
 * reaped (tbl_reclaim_locked(t, reap = 1)) from the second one, so a writer never gets to find out that
 * the stuck reader has died. Expected output when fixed: "after the reader died: 0 of 20 refused".
 */
use Shm\Table;

/* Overwrite the same 4 keys with 400 KB values: this needs no more memory than the table has, only the
 * memory of the values it replaces. */
function refused(int $n): int
{
    $r = 0;
    for ($i = 0; $i < $n; $i++) {
        $r += !Table::set('w' . ($i % 4), str_repeat(chr(65 + $i % 26), 400000));
    }
    return $r;
}

$a = [];
for ($i = 0; $i < 60000; $i++) {
    $a[] = $i;
}
Table::set('big', $a);      // materializing it takes a while: a reader spends most of its time in get()
$pid = pcntl_fork();
if ($pid === 0) {
    while (true) {
        Table::get('big');
    }
}
usleep(100000);
for ($try = 0; $try < 50; $try++) {
    posix_kill($pid, SIGSTOP);          // a reader descheduled inside its read section...
    usleep(20000);
    if (refused(20) > 0) {              // ...pins the replaced values: writes wait 200 ms, then fail
        break;
    }
    posix_kill($pid, SIGCONT);          // it was stopped outside a read: try again
    usleep(5000);
}
echo $try < 50 ? "reader stopped inside a read section; writes refused while it is stuck there\n" : "could not stop the reader inside a read\n";
posix_kill($pid, SIGKILL);              // ...and then dies there
pcntl_waitpid($pid, $st);
echo 'after the reader died: ', refused(20), " of 20 refused\n";
$child = pcntl_fork();
if ($child === 0) {
    echo 'in a new process: ', refused(20), " of 20 refused\n";
    exit(0);
}
pcntl_waitpid($child, $st);
$s = Table::stats();
echo "retired bytes {$s['retired_bytes']}, memory_free {$s['memory_free']}, oom {$s['oom']}, slots used {$s['slots_used']}\n";
