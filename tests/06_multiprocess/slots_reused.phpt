--TEST--
Shm\Table: multiprocess: 300 short-lived children release their slots
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; table_skip_unless_pcntl(); table_skip_if_valgrind('300 forks take minutes'); ?>
--FILE--
<?php
use Shm\Table;
require __DIR__ . '/../helpers.inc';

Table::set('shared', 'x');
$before = Table::stats()['slots_used'];
$failures = 0;
for ($i = 0; $i < 300; $i++) {
    $r = table_fork(1, function () use ($i) {
        return Table::get('shared') === 'x' && Table::set("c$i", $i) && Table::increment('n') > 0;
    }, false);
    if ($r[0] !== true) {
        $failures++;
    }
}
$s = Table::stats();
var_dump($failures, Table::count(), Table::get('n'));
var_dump($s['slots_used'] <= $before + 1, $s['slots_used'] >= 1, $s['slots_total'] > 300 || $s['slots_used'] < $s['slots_total']);
?>
--EXPECT--
int(0)
int(302)
int(300)
bool(true)
bool(true)
bool(true)
