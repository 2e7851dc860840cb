--TEST--
Shm\Table: observability: stats()['start_time'] is when the segment was created, the same in every worker and after clearAll(), and metrics() has it as table_start_time_seconds
--INI--
table.memory=8M
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; table_skip_unless_pcntl(); ?>
--FILE--
<?php
use Shm\Table;
require __DIR__ . '/../helpers.inc';
require __DIR__ . '/observability.inc';

$s = Table::stats();
$t = $s['start_time'];
var_dump(is_int($t));

// The segment is created in MINIT: after this process started, before its request did (an ordering of
// the clocks, not a duration). The process start is read from /proc (jiffies since boot + boot time).
$request = $_SERVER['REQUEST_TIME'];
$procStart = null;
if (is_readable('/proc/self/stat') && is_readable('/proc/stat')) {
    $stat = file_get_contents('/proc/self/stat');
    $fields = explode(' ', substr($stat, strrpos($stat, ')') + 2));
    preg_match('/^btime (\d+)$/m', file_get_contents('/proc/stat'), $bm);
    $hz = (int) trim((string) shell_exec('getconf CLK_TCK 2>/dev/null')) ?: 100;
    $procStart = (int) $bm[1] + intdiv((int) $fields[19], $hz);
}
var_dump($t <= $request, $procStart === null || $t >= $procStart - 1);

// Operations and clearAll() leave it alone: it is the segment's, not the data's.
Table::set('a', 1);
Table::clearAll();
var_dump(Table::stats()['start_time'] === $t);

// Forked workers map the same segment and report the same start.
$seen = table_fork(2, fn() => Table::stats()['start_time']);
var_dump($seen === [$t, $t]);

// metrics(): the gauge, equal to stats(), and stats() and metrics() still agree on every figure.
$p = obs_parse(Table::metrics());
var_dump($p['types']['table_start_time_seconds'] ?? null, obs_value($p, 'table_start_time_seconds') === $t);
var_dump(obs_compare(Table::stats(), $p));
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
string(5) "gauge"
bool(true)
array(0) {
}
