--TEST--
Shm\Table: clear: removes one namespace's entries (null = default) and leaves the others
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

for ($i = 0; $i < 10; $i++) {
    Table::set("k$i", $i);
    Table::set("k$i", $i, null, 'a');
    Table::set("k$i", $i, null, 'b');
}
var_dump(Table::clear());
var_dump(Table::count(), Table::count('a'), Table::count('b'));
var_dump(Table::get('k1'), Table::get('k1', 'a'));
var_dump(Table::clear('a'));
var_dump(Table::count(), Table::count('a'), Table::count('b'));
var_dump(Table::get('k1', 'b'));
var_dump(Table::namespaces());
// the cleared namespaces work again
Table::set('new', 'v');
Table::set('new', 'v', null, 'a');
var_dump(Table::get('new'), Table::get('new', 'a'), Table::count('a'));
?>
--EXPECT--
bool(true)
int(0)
int(10)
int(10)
NULL
int(1)
bool(true)
int(0)
int(0)
int(10)
int(1)
array(1) {
  [0]=>
  string(1) "b"
}
string(1) "v"
string(1) "v"
int(1)
