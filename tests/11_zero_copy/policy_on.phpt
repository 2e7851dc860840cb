--TEST--
Shm\Table: zero-copy: table.zero_copy=on forces it on under the CLI: arrays are handed out without a copy, other values are copied
--INI--
table.zero_copy=on
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

Table::set('arr', ['x' => 1, 'y' => [2, 3]]);
Table::set('str', 'a string');
Table::set('obj', new ArrayObject([1]));
var_dump(Table::get('arr'), Table::get('str'), Table::get('obj')->count());
$s = Table::stats();
var_dump($s['zero_copy'], $s['zero_copy_reads'], $s['copied_reads'], $s['pins'], $s['zero_copy_budget'] === 64 * 1024 * 1024 / 8);
?>
--EXPECT--
array(2) {
  ["x"]=>
  int(1)
  ["y"]=>
  array(2) {
    [0]=>
    int(2)
    [1]=>
    int(3)
  }
}
string(8) "a string"
int(1)
bool(true)
int(1)
int(2)
int(1)
bool(true)
