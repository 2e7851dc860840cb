--TEST--
Shm\Table: multiprocess: stats() sums the counters of every process, exited ones included
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; table_skip_unless_pcntl(); ?>
--FILE--
<?php
use Shm\Table;
require __DIR__ . '/../helpers.inc';

$s0 = Table::stats();
table_fork(4, function (int $w) {
    for ($i = 0; $i < 100; $i++) {
        Table::set("w$w:$i", $i);
        Table::get("w$w:$i");
        Table::get("missing$w:$i");
    }
    for ($i = 0; $i < 10; $i++) {
        Table::delete("w$w:$i");
    }
    return true;
});
$s1 = Table::stats();
foreach (['sets', 'hits', 'misses', 'deletes'] as $k) {
    echo $k, ': +', $s1[$k] - $s0[$k], "\n";
}
var_dump($s1['entries'], Table::count());
?>
--EXPECT--
sets: +400
hits: +400
misses: +400
deletes: +40
int(360)
int(360)
