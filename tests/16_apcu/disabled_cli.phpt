--TEST--
Shm\Table: APCu API: with apc.enable_cli=0 in the CLI, every function answers as APCu's disabled cache does
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; require __DIR__ . '/apcu.inc'; table_apcu_skipif(); ?>
--ENV--
PHP_INI_SCAN_DIR={PWD}/no-conf.d
--INI--
table.apcu_compat=1
apc.enable_cli=0
--FILE--
<?php
// The probes still see APCu (Symfony's ApcuAdapter::isSupported() reads apc.enable_cli itself).
var_dump(extension_loaded('apcu'), ini_get('apc.enabled'), ini_get('apc.enable_cli'), apcu_enabled());
var_dump(apcu_clear_cache());
var_dump(apcu_cache_info());
var_dump(apcu_sma_info());
var_dump(apcu_store('key', 'value'), apcu_add('key', 'value'), apcu_exists('key'), apcu_fetch('key', $ok), $ok,
    apcu_key_info('key'), apcu_delete('key'));
var_dump(apcu_store(['key' => 'value']), apcu_add(['key' => 'value']), apcu_exists(['key']), apcu_fetch(['key']),
    apcu_delete(['key']));
var_dump(apcu_inc('key', 1, $s1), $s1, apcu_dec('key', 1, $s2), $s2, apcu_cas('key', 10, 20));
var_dump(apcu_entry('key', function () { echo "not called\n"; return 42; }));
// Nothing reached the table.
var_dump(Shm\Table::count('apcu'));
?>
--EXPECTF--
bool(true)
string(1) "1"
string(1) "0"
bool(false)
bool(true)

Warning: apcu_cache_info(): No APC info available.  Perhaps APC is not enabled? Check apc.enabled in your ini file in %s on line %d
bool(false)

Warning: apcu_sma_info(): No APC SMA info available.  Perhaps APC is disabled via apc.enabled? in %s on line %d
bool(false)
bool(false)
bool(false)
bool(false)
bool(false)
bool(false)
NULL
bool(false)
array(1) {
  ["key"]=>
  int(-1)
}
array(1) {
  ["key"]=>
  int(-1)
}
array(0) {
}
array(0) {
}
array(1) {
  [0]=>
  string(3) "key"
}
bool(false)
bool(false)
bool(false)
bool(false)
bool(false)
NULL
int(0)
