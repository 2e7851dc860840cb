--TEST--
Shm\Table: types: stored values are copies, independent of the caller's variables
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

$a = [1, 'nested' => [2]];
Table::set('a', $a);
$a[] = 'after';
$a['nested'][] = 3;
var_dump(Table::get('a') === [1, 'nested' => [2]]);

$o = new stdClass;
$o->x = 1;
Table::set('o', $o);
$o->x = 2;
var_dump(Table::get('o')->x);

// changing a fetched value changes neither the table nor other fetches
$got = Table::get('a');
$got['nested'][0] = 'modified';
$got2 = Table::get('a');
var_dump($got2['nested'][0]);
$obj = Table::get('o');
$obj->x = 'modified';
var_dump(Table::get('o')->x);

// a fetched value survives the entry being replaced or deleted
$s = Table::get('a');
Table::set('a', 'replaced');
Table::delete('o');
var_dump($s['nested'], $obj->x);

// strings stored from a variable stay independent too
$str = str_repeat('a', 100);
Table::set('s', $str);
$str[0] = 'b';
var_dump(Table::get('s')[0]);
?>
--EXPECT--
bool(true)
int(1)
int(2)
int(1)
array(1) {
  [0]=>
  int(2)
}
string(8) "modified"
string(1) "a"
