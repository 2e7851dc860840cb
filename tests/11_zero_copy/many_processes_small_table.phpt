--TEST--
Shm\Table: reader slots don't depend on table.memory: 300 concurrent processes at table.memory=1M all read and write
--INI--
table.memory=1M
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; table_skip_unless_pcntl(); table_skip_unless_posix(); table_skip_if_valgrind('300 processes'); ?>
--FILE--
<?php
use Shm\Table;
require __DIR__ . '/../helpers.inc';

$pids = [];
$parent = getmypid();
for ($i = 0; $i < 300; $i++) {
    $pid = pcntl_fork();
    if ($pid === 0) {
        $ok = false;
        try {
            $ok = Table::set("p$i", ['i' => $i]) && Table::get("p$i") === ['i' => $i]
                && Table::increment('arrived') > 0;
            // Stay alive (holding the slot) until all 300 have one, and not a moment past the test's end:
            // should the parent die (run-tests.php kills a test that runs out of time), the children go too,
            // instead of polling for ever.
            while ($ok && !Table::exists('go') && posix_getppid() === $parent) {
                usleep(2000);
            }
        } catch (Throwable $e) {
            echo "child $i: ", $e->getMessage(), "\n";
        }
        exit($ok ? 0 : 1);
    }
    $pids[] = $pid;
}
table_wait_until(fn() => Table::get('arrived') === 300);
$s = Table::stats();
echo "arrived: ", Table::get('arrived'), ", slots: ", $s['slots_total'], ", in use: ", $s['slots_used'] >= 301 ? '301+' : $s['slots_used'], "\n";
Table::set('go', true);
$failed = 0;
foreach ($pids as $pid) {
    pcntl_waitpid($pid, $status);
    $failed += (int) !(pcntl_wifexited($status) && pcntl_wexitstatus($status) === 0);
}
echo "failed: $failed\n";
?>
--EXPECT--
arrived: 300, slots: 4096, in use: 301+
failed: 0
