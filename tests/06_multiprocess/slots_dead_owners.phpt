--TEST--
Shm\Table: multiprocess: more SIGKILLed workers than there are reader slots never exhaust the slots
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; table_skip_unless_pcntl(); table_skip_unless_posix(); table_skip_if_valgrind('4,200 forks take hours'); ?>
--FILE--
<?php
use Shm\Table;
require __DIR__ . '/../helpers.inc';

Table::set('x', 'shared');
$total = Table::stats()['slots_total'] + 100;
$unexpected = 0;
// in batches, so that both cores fork
for ($i = 0; $i < $total; $i += 16) {
    $pids = [];
    for ($j = $i; $j < min($i + 16, $total); $j++) {
        flush();
        $pid = pcntl_fork();
        if ($pid === 0) {
            // take a slot, then die without any chance to give it back
            Table::get('x');
            Table::increment('started');
            posix_kill(getmypid(), SIGKILL);
            exit(1);
        }
        $pids[] = $pid;
    }
    foreach ($pids as $pid) {
        pcntl_waitpid($pid, $status);
        if (!pcntl_wifsignaled($status) || pcntl_wtermsig($status) !== SIGKILL) {
            $unexpected++;
        }
    }
}
var_dump($unexpected, Table::get('started') === $total);
// a new worker still gets a slot and works
$r = table_fork(2, fn(int $w) => [Table::get('x'), Table::increment('after')]);
var_dump($r[0][0], $r[1][0], Table::get('after'));
$s = Table::stats();
var_dump($s['slots_used'] < $s['slots_total']);
?>
--EXPECT--
int(0)
bool(true)
string(6) "shared"
string(6) "shared"
int(2)
bool(true)
