--TEST--
Shm\Table: types: ArrayObject and SPL containers round-trip
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

$ao = new ArrayObject(['a' => 1, 'b' => [2, 3]]);
Table::set('ao', $ao);
$got = Table::get('ao');
var_dump(get_class($got), $got == $ao, $got->getArrayCopy(), count($got));

$stack = new SplStack;
$stack->push('x');
$stack->push('y');
Table::set('stack', $stack);
$got = Table::get('stack');
var_dump(get_class($got), $got->top(), count($got));

$fixed = SplFixedArray::fromArray([1, 2, 3]);
Table::set('fixed', $fixed);
var_dump(Table::get('fixed')->toArray());
?>
--EXPECT--
string(11) "ArrayObject"
bool(true)
array(2) {
  ["a"]=>
  int(1)
  ["b"]=>
  array(2) {
    [0]=>
    int(2)
    [1]=>
    int(3)
  }
}
int(2)
string(8) "SplStack"
string(1) "y"
int(2)
array(3) {
  [0]=>
  int(1)
  [1]=>
  int(2)
  [2]=>
  int(3)
}
