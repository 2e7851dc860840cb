--TEST--
Shm\Table: serializer: a graph of 1,000 linked objects round-trips
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

$nodes = [];
for ($i = 0; $i < 1000; $i++) {
    $n = new stdClass;
    $n->id = $i;
    $n->prev = $i ? $nodes[$i - 1] : null;
    $nodes[] = $n;
}
$nodes[0]->prev = $nodes[999];
Table::set('graph', $nodes);
$got = Table::get('graph');
$ok = count($got) === 1000;
for ($i = 1; $i < 1000; $i++) {
    $ok = $ok && $got[$i]->id === $i && $got[$i]->prev === $got[$i - 1];
}
var_dump($ok, $got[0]->prev === $got[999]);
?>
--EXPECT--
bool(true)
bool(true)
