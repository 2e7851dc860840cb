--TEST--
Shm\Table: APCu API: apcu_inc, apcu_dec and apcu_cas as APCu 5.1 (a missing key is created with the step, wrapping arithmetic)
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; require __DIR__ . '/apcu.inc'; table_apcu_skipif(); ?>
--ENV--
PHP_INI_SCAN_DIR={PWD}/no-conf.d
--INI--
table.apcu_compat=1
apc.enable_cli=1
--FILE--
<?php
// A missing key: created holding the step (APCu adds 0, then the step).
var_dump(apcu_inc('n', 5, $ok), $ok, apcu_fetch('n'));
var_dump(apcu_inc('n'), apcu_dec('n', 2), apcu_dec('m', 3, $ok), $ok);
var_dump(apcu_inc('n', 10, $ok, 100), $ok);
// Not an integer: false, $success false, the value untouched.
apcu_store('s', 'text');
apcu_store('f', 1.5);
var_dump(apcu_inc('s', 1, $ok), $ok, apcu_dec('f', 1, $ok), $ok, apcu_fetch('s'), apcu_fetch('f'));
// Integers wrap, as APCu's CPU addition does.
apcu_store('max', PHP_INT_MAX);
var_dump(apcu_inc('max'), apcu_dec('max'), apcu_dec('max', PHP_INT_MIN));
// cas: integers only; false for a missing key, another value, or a non-integer.
var_dump(apcu_cas('n', 13, 20), apcu_fetch('n'), apcu_cas('n', 13, 30), apcu_cas('none', 0, 1), apcu_cas('s', 0, 1));
apcu_store('zero', 0);
var_dump(apcu_cas('zero', 0, -1), apcu_fetch('zero'));
// Shm\Table sees the same integers in the apcu namespace, and its increment works on them.
var_dump(Shm\Table::increment('n', 1, null, 'apcu'), apcu_fetch('n'));
// The $success argument must be a variable; a non-int step is a TypeError as with APCu.
try {
    apcu_inc('n', 'x');
} catch (TypeError $e) {
    echo $e->getMessage(), "\n";
}
?>
--EXPECT--
int(5)
bool(true)
int(5)
int(6)
int(4)
int(-3)
bool(true)
int(14)
bool(true)
bool(false)
bool(false)
bool(false)
bool(false)
string(4) "text"
float(1.5)
int(-9223372036854775808)
int(9223372036854775807)
int(-1)
bool(false)
int(14)
bool(false)
bool(false)
bool(false)
bool(true)
int(-1)
int(15)
int(15)
apcu_inc(): Argument #2 ($step) must be of type int, string given
