--TEST--
Shm\Table: APCu API: apcu_store / apcu_fetch with a key or an array of keys, $success, types, objects and references
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; require __DIR__ . '/apcu.inc'; table_apcu_skipif(); ?>
--ENV--
PHP_INI_SCAN_DIR={PWD}/no-conf.d
--INI--
table.apcu_compat=1
apc.enable_cli=1
--FILE--
<?php
class Point { public $x = 1; public $y = [2]; }
// A missing key: false with $success = false (what applications test for).
var_dump(apcu_fetch('missing', $ok), $ok);
$values = ['int' => 42, 'neg' => -7, 'float' => 1.5, 'true' => true, 'false' => false, 'null' => null,
    'str' => 'hello', 'empty' => '', 'arr' => [1, 'a' => [2, 3]], 'obj' => new Point];
foreach ($values as $k => $v) {
    if (!apcu_store($k, $v) || apcu_fetch($k, $ok) != $v || !$ok) {
        echo "round trip of $k failed\n";
    }
}
// false and null stored: fetch tells them from a miss only through $success.
var_dump(apcu_fetch('false', $ok), $ok, apcu_fetch('null', $ok), $ok);
var_dump(get_class(apcu_fetch('obj')), apcu_fetch('obj') !== $values['obj']);
// References inside arrays keep their structure (serialized, as APCu does).
$a = [1];
$a[1] = &$a[0];
apcu_store('ref', $a);
$b = apcu_fetch('ref');
$b[0] = 'changed';
var_dump($b[1]);
// A value without a value: false; a key of another type: APCu's warning.
var_dump(apcu_store('novalue'));
var_dump(apcu_store(1, 'x'), apcu_store(null, 'x'));
// An array of key => value: the keys that failed (none), int keys too.
var_dump(apcu_store(['k1' => 'v1', 'k2' => 'v2', 123 => 'int key']));
// Fetching an array of keys: the hits only, $success true even when nothing was found.
var_dump(apcu_fetch(['k1', 'missing', '123', 'k2'], $ok), $ok);
var_dump(apcu_fetch(['nothing', 'at all'], $ok), $ok);
var_dump(apcu_fetch(['k1', 5, null]));
// Scalar keys are converted to strings, as APCu converts them.
var_dump(apcu_fetch(123));
// The store replaces, and a TTL of 0 never expires.
var_dump(apcu_store('k1', 'new', 0), apcu_fetch('k1'));
// Resources: APCu's warning and false; nothing stored.
var_dump(apcu_store('res', STDIN), apcu_exists('res'));
var_dump(apcu_store(['res' => STDIN, 'fine' => 1]), apcu_fetch('fine'));
// Keys the table cannot hold (empty, over 64 KiB) are failed stores and misses, never exceptions.
var_dump(apcu_store('', 1), apcu_fetch('', $ok), $ok, apcu_store(str_repeat('k', 70000), 1));
// Exceptions from user code propagate, as from APCu.
class Bad { public function __sleep(): array { throw new RuntimeException('no sleep'); } }
try {
    apcu_store('bad', new Bad);
} catch (RuntimeException $e) {
    echo get_class($e), ': ', $e->getMessage(), "\n";
}
try {
    apcu_store('closure', function () {});
} catch (Exception $e) {
    echo get_class($e), ': ', $e->getMessage(), "\n";
}
var_dump(apcu_exists('bad'), apcu_exists('closure'));
?>
--EXPECTF--
bool(false)
bool(false)
bool(false)
bool(true)
NULL
bool(true)
string(5) "Point"
bool(true)
string(7) "changed"
bool(false)

Warning: apcu_store(): apc_store expects key parameter to be a string or an array of key/value pairs. in %s on line %d

Warning: apcu_store(): apc_store expects key parameter to be a string or an array of key/value pairs. in %s on line %d
bool(false)
bool(false)
array(0) {
}
array(3) {
  ["k1"]=>
  string(2) "v1"
  ["123"]=>
  string(7) "int key"
  ["k2"]=>
  string(2) "v2"
}
bool(true)
array(0) {
}
bool(true)

Warning: apcu_fetch(): apc_fetch() expects a string or array of strings. in %s on line %d

Warning: apcu_fetch(): apc_fetch() expects a string or array of strings. in %s on line %d
array(1) {
  ["k1"]=>
  string(2) "v1"
}
string(7) "int key"
bool(true)
string(3) "new"

Warning: apcu_store(): Cannot store resources in apcu cache in %s on line %d
bool(false)
bool(false)

Warning: apcu_store(): Cannot store resources in apcu cache in %s on line %d
array(1) {
  ["res"]=>
  int(-1)
}
int(1)
bool(false)
bool(false)
bool(false)
bool(false)
RuntimeException: no sleep
Exception: Serialization of 'Closure' is not allowed
bool(false)
bool(false)
