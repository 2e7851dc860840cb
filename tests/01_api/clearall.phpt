--TEST--
Shm\Table: clearAll: removes every namespace's entries and returns how many
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

var_dump(Table::clearAll());
for ($i = 0; $i < 7; $i++) {
    Table::set("d$i", $i);
}
for ($i = 0; $i < 5; $i++) {
    Table::set("a$i", $i, null, 'a');
}
Table::set('b', [1], null, 'b');
var_dump(Table::clearAll());
var_dump(Table::count(), Table::count('a'), Table::count('b'));
var_dump(Table::namespaces(), Table::keys(null), Table::get('d1'), Table::get('a1', 'a'));
var_dump(Table::memory(), Table::memory('a'));
var_dump(iterator_to_array(Table::fullscan()));
var_dump(Table::clearAll());
// still usable
var_dump(Table::set('d1', 'again'), Table::get('d1'), Table::count());
?>
--EXPECT--
int(0)
int(13)
int(0)
int(0)
int(0)
array(0) {
}
array(0) {
}
NULL
NULL
int(0)
int(0)
array(0) {
}
int(0)
bool(true)
string(5) "again"
int(1)
