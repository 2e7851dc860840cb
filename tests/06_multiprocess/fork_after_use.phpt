--TEST--
Shm\Table: multiprocess: forking after the parent used the table gives the child a working table
--INI--
table.memory=2M
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; table_skip_unless_pcntl(); ?>
--FILE--
<?php
use Shm\Table;
require __DIR__ . '/../helpers.inc';

// use every kind of call in the parent first
for ($i = 0; $i < 200; $i++) {
    Table::set("p$i", str_repeat('p', $i), null, $i % 2 ? 'odd' : null);
}
Table::get('p0');
Table::getMany(['p2', 'p4']);
Table::remember('r', fn() => 'parent');
Table::increment('n');
iterator_to_array(Table::fullscan(null, 5), false);
Table::stats();
// a generator left half-way
$gen = Table::fullscan(null, 3);
$gen->current();

$r = table_fork(1, function (int $w) {
    $out = [];
    $out[] = Table::get('p10');
    $out[] = Table::count() + Table::count('odd');
    $out[] = Table::increment('n');
    $out[] = Table::set("c$w", "child $w");
    $out[] = Table::remember('r', fn() => 'child');
    $out[] = Table::delete("p2");
    $out[] = iterator_count(Table::fullscan());
    return $out;
});
var_dump($r[0][0] === str_repeat('p', 10), $r[0][1], $r[0][3], $r[0][4]);
var_dump($r[0][2], $r[0][5], $r[0][6]);
var_dump(Table::get('n'), Table::get('c0'), Table::exists('p2'));
// the parent carries on normally, the half-way generator included
var_dump(Table::set('after', 1), Table::get('after'));
$rest = 0;
foreach ($gen as $ns => $key) {
    $rest++;
}
var_dump($rest > 0);
// and forking again works
$r = table_fork(1, fn() => [Table::get('c0'), Table::increment('n')]);
var_dump($r[0]);
?>
--EXPECT--
bool(true)
int(202)
bool(true)
string(6) "parent"
int(2)
bool(true)
int(202)
int(2)
string(7) "child 0"
bool(false)
bool(true)
int(1)
bool(true)
array(2) {
  [0]=>
  string(7) "child 0"
  [1]=>
  int(3)
}
