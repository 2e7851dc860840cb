--TEST--
Shm\Table: setMany: stores every entry of the array and returns true
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

var_dump(Table::setMany([]));
var_dump(Table::setMany(['a' => 1, 'b' => [2], 5 => 'five', 'n' => null, 'o' => new ArrayObject([1])]));
var_dump(Table::count());
var_dump(Table::get('a'), Table::get('b'), Table::get('5'), Table::exists('n'), Table::get('o') == new ArrayObject([1]));
var_dump(Table::ttl('a'));
// overwrites
var_dump(Table::setMany(['a' => 'new']), Table::get('a'));
// expiry and namespace
var_dump(Table::setMany(['x' => 1, 'y' => 2], 100, 'ns'));
$t = Table::ttl('y', 'ns');
var_dump($t >= 1 && $t <= 100, Table::count('ns'), Table::get('x'));
var_dump(Table::setMany(values: ['z' => 3], namespace: 'ns'), Table::get('z', 'ns'), Table::ttl('z', 'ns'));
?>
--EXPECT--
bool(true)
bool(true)
int(5)
int(1)
array(1) {
  [0]=>
  int(2)
}
string(4) "five"
bool(true)
bool(true)
bool(false)
bool(true)
string(3) "new"
bool(true)
bool(true)
int(2)
NULL
bool(true)
int(3)
bool(false)
