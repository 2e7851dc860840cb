--TEST--
Shm\Table: namespaces: clear(ns) empties one namespace and leaves the default and the others
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

foreach (['a', 'b', 'c'] as $ns) {
    for ($i = 0; $i < 50; $i++) {
        Table::set("k$i", "$ns$i", null, $ns);
    }
}
Table::set('k1', 'default');
var_dump(Table::clear('b'));
var_dump(Table::count('a'), Table::count('b'), Table::count('c'), Table::count());
var_dump(Table::memory('b'));
var_dump(Table::get('k1', 'a'), Table::get('k1', 'b'), Table::get('k1', 'c'), Table::get('k1'));
$ns = Table::namespaces();
sort($ns);
var_dump($ns);
var_dump(Table::keys('k1', 'b'), Table::keys('k1', 'c'));
$scan = 0;
foreach (Table::fullscan() as $n => $k) {
    if ($n === 'b') {
        $scan++;
    }
}
var_dump($scan, array_key_exists('b', Table::stats()['namespaces']));
?>
--EXPECT--
bool(true)
int(50)
int(0)
int(50)
int(1)
int(0)
string(2) "a1"
NULL
string(2) "c1"
string(7) "default"
array(2) {
  [0]=>
  string(1) "a"
  [1]=>
  string(1) "c"
}
array(0) {
}
array(1) {
  [0]=>
  string(2) "k1"
}
int(0)
bool(false)
