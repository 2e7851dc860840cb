--TEST--
Shm\Table: types: packed, hash and mixed arrays come back === with the same key order
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

$cases = [
    'packed' => [1, 'two', 3.0, null, true, false, -7],
    'hash' => ['b' => 1, 'a' => 2, 'c' => ['x' => 'y']],
    'mixed' => [10 => 'ten', 'k' => 'kay', 0 => 'zero', -3 => 'minus', 'z' => [1, [2, [3]]]],
    'holes' => [0 => 'a', 2 => 'c', 5 => 'f'],
    'reversed' => [3 => 'd', 2 => 'c', 1 => 'b', 0 => 'a'],
    'types' => ['1', 1, 1.0, true, '', 0, 0.0, false, null, '0', 'false'],
    'binary keys' => ["a\0b" => 1, "\0" => 2, '' => 3, ' ' => 4],
    'big keys' => [PHP_INT_MAX => 'max', PHP_INT_MIN => 'min'],
];
foreach ($cases as $name => $v) {
    Table::set($name, $v);
}
foreach ($cases as $name => $v) {
    $got = Table::get($name);
    echo $name, ': ', $got === $v ? 'identical' : 'DIFFERENT', "\n";
}
var_dump(Table::get('mixed'));
?>
--EXPECT--
packed: identical
hash: identical
mixed: identical
holes: identical
reversed: identical
types: identical
binary keys: identical
big keys: identical
array(5) {
  [10]=>
  string(3) "ten"
  ["k"]=>
  string(3) "kay"
  [0]=>
  string(4) "zero"
  [-3]=>
  string(5) "minus"
  ["z"]=>
  array(2) {
    [0]=>
    int(1)
    [1]=>
    array(2) {
      [0]=>
      int(2)
      [1]=>
      array(1) {
        [0]=>
        int(3)
      }
    }
  }
}
