--TEST--
Shm\Table: types: stdClass objects come back equal (==) as new instances
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

$o = new stdClass;
$o->int = 1;
$o->str = "a\0b";
$o->plain = 'text';
$o->arr = [1, 2, ['x' => 1.5]];
$o->child = new stdClass;
$o->child->name = 'child';
$o->{'0'} = 'numeric name';
Table::set('o', $o);
$got = Table::get('o');
var_dump($got == $o, $got === $o, get_class($got));
var_dump(bin2hex($got->str));
unset($got->str);
var_dump($got);
// each get materializes a fresh object
var_dump(Table::get('o') !== Table::get('o'));
// an empty object
Table::set('empty', new stdClass);
var_dump(Table::get('empty'));
?>
--EXPECTF--
bool(true)
bool(false)
string(8) "stdClass"
string(6) "610062"
object(stdClass)#%d (5) {
  ["int"]=>
  int(1)
  ["plain"]=>
  string(4) "text"
  ["arr"]=>
  array(3) {
    [0]=>
    int(1)
    [1]=>
    int(2)
    [2]=>
    array(1) {
      ["x"]=>
      float(1.5)
    }
  }
  ["child"]=>
  object(stdClass)#%d (1) {
    ["name"]=>
    string(5) "child"
  }
  ["0"]=>
  string(12) "numeric name"
}
bool(true)
object(stdClass)#%d (0) {
}
