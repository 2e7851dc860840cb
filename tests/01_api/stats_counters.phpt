--TEST--
Shm\Table: stats: hits, misses, sets, deletes and entries follow the calls
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

$s0 = Table::stats();
var_dump($s0['entries'], $s0['namespaces']['']['count']);
Table::set('a', 1);
Table::set('b', 2);
Table::set('c', 3, null, 'ns');
Table::get('a');
Table::get('a');
Table::get('c', 'ns');
Table::get('missing');
Table::delete('b');
Table::delete('missing');
$s1 = Table::stats();
foreach (['sets', 'hits', 'misses', 'deletes'] as $k) {
    echo $k, ': +', $s1[$k] - $s0[$k], "\n";
}
var_dump($s1['entries']);
var_dump($s1['evictions'], $s1['oom']);
?>
--EXPECT--
int(0)
int(0)
sets: +3
hits: +3
misses: +1
deletes: +1
int(2)
int(0)
int(0)
