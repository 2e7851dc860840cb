--TEST--
Shm\Table: observability: every figure of metrics() equals the same figure of stats(), across forked workers and under eviction
--INI--
table.memory=2M
table.eviction_policy=lru
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; table_skip_unless_pcntl(); ?>
--FILE--
<?php
use Shm\Table;
require __DIR__ . '/../helpers.inc';
require __DIR__ . '/observability.inc';

function check(string $when): void
{
    $s = Table::stats();
    $bad = obs_compare($s, obs_parse(Table::metrics()));
    echo $when, ': ', $bad ? implode('; ', $bad) : 'agree', "\n";
}

check('empty');

// a little of everything, in this process
Table::set('a', 1);
Table::set('b', ['x' => [1, 2, 3]], 100, 'arrays');
Table::get('a');
Table::get('b', 'arrays');
Table::get('nope');
Table::increment('n', 5, null, 'counters');
Table::delete('a');
check('after a few operations');

// four workers read and write; their counters are summed (and folded in when they exit)
table_fork(4, function (int $i) {
    for ($k = 0; $k < 500; $k++) {
        Table::set("w$i:$k", str_repeat('x', 64), null, "worker$i");
        Table::get("w$i:" . ($k >> 1), "worker$i");
        Table::get("absent$k");
    }
    return true;
});
$s = Table::stats();
var_dump($s['sets'] >= 2003, $s['misses'] >= 2001);
check('after 4 workers');

// fill the 2M table with 20 KiB values: LRU evicts, and both report the same evictions
for ($k = 0; $k < 300; $k++) {
    Table::set("big$k", str_repeat(chr(65 + $k % 26), 20000), null, 'big');
}
$s = Table::stats();
var_dump($s['evictions'] > 0);
check('after evictions');
?>
--EXPECT--
empty: agree
after a few operations: agree
bool(true)
bool(true)
after 4 workers: agree
bool(true)
after evictions: agree
