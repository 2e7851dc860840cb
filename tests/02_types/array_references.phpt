--TEST--
Shm\Table: types: PHP references inside arrays keep their reference structure
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

$a = [1];
$a[1] = &$a[0];
Table::set('a', $a);
$b = Table::get('a');
var_dump($b == [1, 1]);
$b[1] = 5;
var_dump($b[0]);
// the stored entry itself is not changed through the reference
var_dump(Table::get('a')[0]);

// references between nested elements
$x = ['left' => ['v' => 1], 'right' => null];
$x['right'] = &$x['left']['v'];
Table::set('x', $x);
$y = Table::get('x');
$y['right'] = 'through the reference';
var_dump($y['left']['v']);

// a reference to a value outside the array is just a value afterwards
$outside = 'out';
$z = ['r' => &$outside, 'plain' => 1];
Table::set('z', $z);
$w = Table::get('z');
$w['r'] = 'changed';
var_dump($outside, $w['plain']);
?>
--EXPECT--
bool(true)
int(5)
int(1)
string(21) "through the reference"
string(3) "out"
int(1)
