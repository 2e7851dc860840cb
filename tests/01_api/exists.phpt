--TEST--
Shm\Table: exists: true for a stored key, even when its value is null or false
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

var_dump(Table::exists('a'));
Table::set('a', null);
Table::set('b', false);
Table::set('c', '');
Table::set('d', 0);
Table::set('e', []);
foreach (['a', 'b', 'c', 'd', 'e', 'f'] as $k) {
    echo $k, ': ';
    var_dump(Table::exists($k));
}
var_dump(Table::exists('a', 'ns'));
Table::set('a', 1, null, 'ns');
var_dump(Table::exists('a', 'ns'));
Table::delete('a');
var_dump(Table::exists('a'), Table::exists('a', 'ns'));
?>
--EXPECT--
bool(false)
a: bool(true)
b: bool(true)
c: bool(true)
d: bool(true)
e: bool(true)
f: bool(false)
bool(false)
bool(true)
bool(false)
bool(true)
