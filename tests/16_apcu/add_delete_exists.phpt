--TEST--
Shm\Table: APCu API: apcu_add, apcu_exists and apcu_delete with keys, arrays of keys and bad input
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; require __DIR__ . '/apcu.inc'; table_apcu_skipif(); ?>
--ENV--
PHP_INI_SCAN_DIR={PWD}/no-conf.d
--INI--
table.apcu_compat=1
apc.enable_cli=1
--FILE--
<?php
var_dump(apcu_add('a', 1), apcu_add('a', 2), apcu_fetch('a'));
// An array: the keys already there come back => -1; numeric keys stay ints, as APCu's do.
var_dump(apcu_add(['a' => 3, 'b' => 4, '123' => 5]), apcu_add(['123' => 6]), apcu_fetch('b'));
var_dump(apcu_exists('a'), apcu_exists('zz'), apcu_exists(['a', 'zz', 'b']), apcu_exists(['zz']));
var_dump(apcu_exists(123), apcu_exists([1]));
// delete: true/false for a key; for an array, the keys that were not deleted, as given.
var_dump(apcu_delete('a'), apcu_delete('a'), apcu_exists('a'));
var_dump(apcu_delete(['b', 'nope', 7]));
var_dump(apcu_delete(5));
// add over an expired entry succeeds, as APCu's "hard expired" rule allows.
var_dump(apcu_add('c', 1, -1), apcu_exists('c'), apcu_add('c', 2), apcu_fetch('c'));
// An object that is no APCUIterator: APCu's fatal error.
apcu_delete(new stdClass);
?>
--EXPECTF--
bool(true)
bool(false)
int(1)
array(1) {
  ["a"]=>
  int(-1)
}
array(1) {
  [123]=>
  int(-1)
}
int(4)
bool(true)
bool(false)
array(2) {
  ["a"]=>
  bool(true)
  ["b"]=>
  bool(true)
}
array(0) {
}

Warning: apcu_exists(): apc_exists() expects a string or array of strings. in %s on line %d
bool(true)
array(0) {
}
bool(true)
bool(false)
bool(false)

Warning: apcu_delete(): apc_delete() expects a string, array of strings, or APCIterator instance in %s on line %d
array(2) {
  [0]=>
  string(4) "nope"
  [1]=>
  int(7)
}

Warning: apcu_delete(): apc_delete() expects a string, array of strings, or APCIterator instance in %s on line %d
bool(false)
bool(true)
bool(false)
bool(true)
int(2)

Fatal error: apcu_delete(): apc_delete object argument must be instance of APCUIterator. in %s on line %d
