--TEST--
Shm\Table: APCu API: APCUIterator with APCu disabled (the CLI without apc.enable_cli) throws APCu's Error
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; require __DIR__ . '/apcu.inc'; table_apcu_skipif(); ?>
--ENV--
PHP_INI_SCAN_DIR={PWD}/no-conf.d
--INI--
table.apcu_compat=1
apc.enable_cli=0
--FILE--
<?php
try {
    new APCUIterator();
} catch (Error $e) {
    echo get_class($e), ': ', $e->getMessage(), "\n";
}
var_dump(class_exists('APCUIterator'), class_exists('APCuIterator'));
?>
--EXPECT--
Error: APC must be enabled to use APCUIterator
bool(true)
bool(true)
