--TEST--
Shm\Table: calls: PHP references in argument arrays and values are dereferenced
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

// an array whose elements are references with a refcount of 1 (left over from foreach by reference)
$a = [1, 'two', [3.0]];
foreach ($a as &$v) {
}
unset($v);
Table::set('a', $a);
var_dump(Table::get('a') === [1, 'two', [3.0]]);

// referenced values in setMany, referenced keys in getMany/deleteMany
$val = 'referenced value';
$values = ['r' => &$val, 'plain' => 'p'];
var_dump(Table::setMany($values));
$val = 'changed afterwards';
var_dump(Table::get('r'));
$k1 = 'r';
$k2 = 'plain';
var_dump(Table::getMany([&$k1, &$k2]));
var_dump(Table::deleteMany([&$k1]), Table::exists('r'));
// a referenced scalar passed as the value itself
$x = 42;
$ref = &$x;
Table::set('x', $ref);
var_dump(Table::get('x'));
?>
--EXPECT--
bool(true)
bool(true)
string(16) "referenced value"
array(2) {
  ["r"]=>
  string(16) "referenced value"
  ["plain"]=>
  string(1) "p"
}
int(1)
bool(false)
int(42)
