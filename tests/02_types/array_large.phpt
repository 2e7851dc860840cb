--TEST--
Shm\Table: types: arrays with 100,000 elements round-trip identically
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

$list = range(0, 99999);
$map = [];
for ($i = 0; $i < 100000; $i++) {
    $map["key$i"] = $i % 3 ? "value $i" : ($i % 2 ? $i * 1.5 : [$i]);
}
var_dump(Table::set('list', $list), Table::set('map', $map));
var_dump(Table::get('list') === $list, Table::get('map') === $map);
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
bool(true)
