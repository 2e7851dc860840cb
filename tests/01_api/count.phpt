--TEST--
Shm\Table: count: live entries of one namespace
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

var_dump(Table::count());
for ($i = 0; $i < 100; $i++) {
    Table::set("k$i", $i);
}
var_dump(Table::count());
// overwriting does not add
for ($i = 0; $i < 100; $i++) {
    Table::set("k$i", -$i);
}
var_dump(Table::count());
for ($i = 0; $i < 30; $i++) {
    Table::delete("k$i");
}
var_dump(Table::count());
Table::set('x', 1, null, 'other');
var_dump(Table::count(), Table::count('other'), Table::count('unknown'));
var_dump(Table::count(namespace: 'other'));
?>
--EXPECT--
int(0)
int(100)
int(100)
int(70)
int(70)
int(1)
int(0)
int(1)
