--TEST--
Shm\Table: getMany: key => value for hits only, in the order asked
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

var_dump(Table::getMany([]));
var_dump(Table::getMany(['a', 'b']));
Table::set('a', 1);
Table::set('b', ['two']);
Table::set('c', null);
Table::set('5', 'five');
Table::set('a', 'ns-a', null, 'ns');
var_dump(Table::getMany(['missing', 'c', 'b', 'nope', 'a']));
// int elements are used as their decimal string
var_dump(Table::getMany([5, '5']));
var_dump(Table::getMany(['a', 'b'], 'ns'));
var_dump(Table::getMany(keys: ['a'], namespace: 'ns'));
// the array keys of the argument do not matter
var_dump(Table::getMany(['x' => 'a', 'y' => 'b']));
?>
--EXPECT--
array(0) {
}
array(0) {
}
array(3) {
  ["c"]=>
  NULL
  ["b"]=>
  array(1) {
    [0]=>
    string(3) "two"
  }
  ["a"]=>
  int(1)
}
array(1) {
  [5]=>
  string(4) "five"
}
array(1) {
  ["a"]=>
  string(4) "ns-a"
}
array(1) {
  ["a"]=>
  string(4) "ns-a"
}
array(2) {
  ["a"]=>
  int(1)
  ["b"]=>
  array(1) {
    [0]=>
    string(3) "two"
  }
}
