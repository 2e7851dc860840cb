--TEST--
Shm\Table: namespaces: clearAll counts the entries of every namespace and empties them all
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

$total = 0;
for ($n = 0; $n < 20; $n++) {
    for ($i = 0; $i <= $n; $i++) {
        Table::set("k$i", $i, null, "ns$n");
        $total++;
    }
}
Table::set('d', 1);
$total++;
var_dump($total, Table::clearAll());
var_dump(Table::namespaces(), Table::count('ns19'), Table::count());
$st = Table::stats();
var_dump($st['entries'], array_keys($st['namespaces']));
// namespaces work again afterwards
Table::set('k', 'v', null, 'ns5');
var_dump(Table::get('k', 'ns5'), Table::namespaces());
?>
--EXPECT--
int(211)
int(211)
array(0) {
}
int(0)
int(0)
int(0)
array(1) {
  [0]=>
  string(0) ""
}
string(1) "v"
array(1) {
  [0]=>
  string(3) "ns5"
}
