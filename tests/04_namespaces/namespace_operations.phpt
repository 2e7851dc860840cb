--TEST--
Shm\Table: namespaces: every method honours its $namespace argument
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

$ns = 'scoped';
Table::set('k', 1, null, $ns);
Table::add('a', 2, null, $ns);
Table::increment('i', 3, null, $ns);
Table::decrement('d', 4, null, $ns);
Table::setMany(['m1' => 5, 'm2' => 6], null, $ns);
Table::remember('r', fn() => 7, null, $ns);
Table::cas('k', 1, 'swapped', $ns);
Table::touch('k', 100, $ns);
var_dump(Table::count(), Table::keys(null), Table::memory());
$k = Table::keys(null, $ns);
sort($k);
echo implode(',', $k), "\n";
var_dump(Table::getMany(['k', 'a', 'i', 'd', 'm1', 'm2', 'r'], $ns));
var_dump(Table::ttl('k', $ns) > 0, Table::getWithMeta('k', $ns)[0]);
var_dump(Table::deleteMany(['m1', 'm2'], $ns), Table::delete('r', $ns), Table::count($ns));
var_dump(Table::clear($ns), Table::count($ns));
?>
--EXPECT--
int(0)
array(0) {
}
int(0)
a,d,i,k,m1,m2,r
array(7) {
  ["k"]=>
  string(7) "swapped"
  ["a"]=>
  int(2)
  ["i"]=>
  int(3)
  ["d"]=>
  int(-4)
  ["m1"]=>
  int(5)
  ["m2"]=>
  int(6)
  ["r"]=>
  int(7)
}
bool(true)
string(7) "swapped"
int(2)
bool(true)
int(4)
bool(true)
int(0)
