--TEST--
Shm\Table: types: arrays holding objects come back equal with every other element exact
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

$o = new stdClass;
$o->x = 1;
$a = ['int' => PHP_INT_MAX, 'float' => -0.0, 'str' => "bin\0", 'null' => null, 'obj' => $o,
    'list' => [1, [new ArrayObject([1]), 'deep' => [true]]], 7 => false, '8' => 'eight'];
Table::set('a', $a);
$got = Table::get('a');
var_dump($got == $a);
var_dump(array_keys($got) === array_keys($a));
var_dump($got['int'] === PHP_INT_MAX, pack('E', $got['float']) === pack('E', -0.0), $got['str'] === "bin\0");
var_dump($got['null'] === null, $got[7] === false, $got[8] === 'eight', $got['list'][1]['deep'] === [true]);
var_dump(get_class($got['obj']), $got['obj']->x, get_class($got['list'][1][0]));
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
string(8) "stdClass"
int(1)
string(11) "ArrayObject"
