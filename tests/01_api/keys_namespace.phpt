--TEST--
Shm\Table: keys: null pattern lists every key of the namespace only
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

var_dump(Table::keys(null));
var_dump(Table::keys('*', 'ns'));
Table::set('d1', 1);
Table::set('d2', 2);
Table::set('n1', 1, null, 'ns');
Table::set("bin\0key", 1, null, 'ns');
Table::set('123', 1, null, 'ns');

$r = Table::keys(null);
sort($r, SORT_STRING);
var_dump($r);
$r = Table::keys(null, 'ns');
sort($r, SORT_STRING);
var_dump(array_map('bin2hex', $r));
// numeric-looking keys come back as strings
var_dump(Table::keys('1*', 'ns'));
// binary keys match too
var_dump(array_map('bin2hex', Table::keys("bin*", 'ns')));
var_dump(array_map('bin2hex', Table::keys("bin?key", 'ns')));
var_dump(Table::keys(pattern: 'd*', namespace: 'nothing'));
?>
--EXPECT--
array(0) {
}
array(0) {
}
array(2) {
  [0]=>
  string(2) "d1"
  [1]=>
  string(2) "d2"
}
array(3) {
  [0]=>
  string(6) "313233"
  [1]=>
  string(14) "62696e006b6579"
  [2]=>
  string(4) "6e31"
}
array(1) {
  [0]=>
  string(3) "123"
}
array(1) {
  [0]=>
  string(14) "62696e006b6579"
}
array(1) {
  [0]=>
  string(14) "62696e006b6579"
}
array(0) {
}
