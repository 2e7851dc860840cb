--TEST--
Shm\Table: deleteMany: deletes the listed keys and returns how many existed
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

var_dump(Table::deleteMany([]));
Table::setMany(['a' => 1, 'b' => 2, 'c' => 3, '7' => 7]);
Table::set('a', 'ns', null, 'ns');
var_dump(Table::deleteMany(['a', 'missing', 'b', 7]));
var_dump(Table::keys(null), Table::get('a', 'ns'));
var_dump(Table::deleteMany(['a', 'b']));
var_dump(Table::deleteMany(keys: ['a', 'c'], namespace: 'ns'), Table::count('ns'), Table::count());
?>
--EXPECT--
int(0)
int(3)
array(1) {
  [0]=>
  string(1) "c"
}
string(2) "ns"
int(0)
int(1)
int(0)
int(1)
