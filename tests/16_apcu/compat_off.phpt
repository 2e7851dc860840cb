--TEST--
Shm\Table: APCu API: without table.apcu_compat there is no apcu module, function or setting
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; require __DIR__ . '/apcu.inc'; table_apcu_skipif(); ?>
--ENV--
PHP_INI_SCAN_DIR={PWD}/no-conf.d
--FILE--
<?php
var_dump(ini_get('table.apcu_compat'), extension_loaded('apcu'), function_exists('apcu_fetch'), ini_get('apc.enabled'),
    defined('APC_ITER_ALL'));
?>
--EXPECT--
string(1) "0"
bool(false)
bool(false)
bool(false)
bool(false)
