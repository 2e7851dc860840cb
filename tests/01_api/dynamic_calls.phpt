--TEST--
Shm\Table: calls: methods work through call_user_func, named arguments in call_user_func_array and dynamic class names
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
var_dump(call_user_func(['Shm\Table', 'set'], 'a', 1));
var_dump(call_user_func('Shm\Table::get', 'a'));
var_dump(call_user_func_array(['Shm\Table', 'set'], ['key' => 'b', 'value' => 2, 'namespace' => 'ns']));
var_dump(call_user_func_array('Shm\Table::get', ['namespace' => 'ns', 'key' => 'b']));
$class = 'Shm\Table';
var_dump($class::increment('c', by: 5));
$get = Shm\Table::get(...);
var_dump($get('c'), $get(key: 'b', namespace: 'ns'));
var_dump(array_map(Shm\Table::exists(...), ['a', 'zzz']));
?>
--EXPECT--
bool(true)
int(1)
bool(true)
int(2)
int(5)
int(5)
int(2)
array(2) {
  [0]=>
  bool(true)
  [1]=>
  bool(false)
}
