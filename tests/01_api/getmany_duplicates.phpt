--TEST--
Shm\Table: getMany: a key asked twice appears once; mixed int and string forms of one key are one key
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

Table::setMany(['a' => 1, 'b' => 2, '10' => 'ten']);
var_dump(Table::getMany(['a', 'b', 'a', 'missing', 'missing']));
var_dump(Table::getMany([10, '10', 'b']));
var_dump(Table::deleteMany(['a', 'a', 'a']), Table::exists('a'));
?>
--EXPECT--
array(2) {
  ["a"]=>
  int(1)
  ["b"]=>
  int(2)
}
array(2) {
  [10]=>
  string(3) "ten"
  ["b"]=>
  int(2)
}
int(1)
bool(false)
