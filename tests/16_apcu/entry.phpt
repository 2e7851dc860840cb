--TEST--
Shm\Table: APCu API: apcu_entry computes a missing value once, passes the key, and stores it with the TTL
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; require __DIR__ . '/apcu.inc'; table_apcu_skipif(); ?>
--ENV--
PHP_INI_SCAN_DIR={PWD}/no-conf.d
--INI--
table.apcu_compat=1
apc.enable_cli=1
--FILE--
<?php
$calls = 0;
$fn = function (string $key) use (&$calls) { $calls++; return "value of $key"; };
var_dump(apcu_entry('e', $fn), apcu_entry('e', $fn), $calls, apcu_fetch('e'));
// Other apcu_* calls from inside the callback work (no lock is held while it runs).
var_dump(apcu_entry('outer', function () {
    apcu_store('xyz', 123);
    apcu_inc('xyz');
    return apcu_fetch('xyz') . ' ' . apcu_entry('inner', fn() => 'nested');
}));
// A callback that throws: the exception propagates and nothing is stored.
try {
    apcu_entry('boom', function () { throw new LogicException('failed'); });
} catch (LogicException $e) {
    echo $e->getMessage(), "\n";
}
var_dump(apcu_exists('boom'));
// null and false are values like any other.
var_dump(apcu_entry('null', fn() => null), apcu_exists('null'), apcu_entry('false', fn() => false), apcu_fetch('false', $ok), $ok);
// A TTL is the entry's; a negative one stores nothing readable, so the callback runs every time.
var_dump(apcu_entry('t', fn() => 1, 100), Shm\Table::ttl('t', 'apcu') > 0);
$n = 0;
apcu_entry('neg', function () use (&$n) { return ++$n; }, -1);
var_dump(apcu_entry('neg', function () use (&$n) { return ++$n; }, -1), apcu_exists('neg'));
// The callback must be callable.
try {
    apcu_entry('x', 'no_such_function');
} catch (TypeError $e) {
    echo $e->getMessage(), "\n";
}
?>
--EXPECT--
string(10) "value of e"
string(10) "value of e"
int(1)
string(10) "value of e"
string(10) "124 nested"
failed
bool(false)
NULL
bool(true)
bool(false)
bool(false)
bool(true)
int(1)
bool(true)
int(2)
bool(false)
apcu_entry(): Argument #2 ($callback) must be a valid callback, function "no_such_function" not found or invalid function name
