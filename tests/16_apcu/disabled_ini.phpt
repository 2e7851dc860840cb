--TEST--
Shm\Table: APCu API: apc.enabled=0 disables it even with apc.enable_cli=1
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; require __DIR__ . '/apcu.inc'; table_apcu_skipif(); ?>
--ENV--
PHP_INI_SCAN_DIR={PWD}/no-conf.d
--INI--
table.apcu_compat=1
apc.enable_cli=1
apc.enabled=0
--FILE--
<?php
var_dump(ini_get('apc.enabled'), apcu_enabled(), apcu_store('k', 1), apcu_fetch('k'), Shm\Table::count('apcu'));
?>
--EXPECT--
string(1) "0"
bool(false)
bool(false)
bool(false)
int(0)
