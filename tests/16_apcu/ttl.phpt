--TEST--
Shm\Table: APCu API: TTLs: 0 never expires, N seconds expire, a negative TTL stores nothing readable
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; require __DIR__ . '/apcu.inc'; table_apcu_skipif(); ?>
--ENV--
PHP_INI_SCAN_DIR={PWD}/no-conf.d
--INI--
table.apcu_compat=1
apc.enable_cli=1
--FILE--
<?php
require __DIR__ . '/../helpers.inc';
var_dump(apcu_store('forever', 1, 0), apcu_store('short', 1, 1), apcu_store('neg', 1, -5), apcu_exists('neg'));
apcu_store('replaced', 1);
var_dump(apcu_store('replaced', 2, -1), apcu_exists('replaced'));
// An increment keeps the entry's expiry; on a missing key it creates one with the TTL.
var_dump(apcu_inc('counter', 1, $ok, 1), Shm\Table::ttl('counter', 'apcu') <= 1);
// Expired entries are misses for every function (wait for it, no fixed bound on how long).
var_dump(table_wait_until(fn() => !apcu_exists('short') && !apcu_exists('counter')));
var_dump(apcu_fetch('short', $ok), $ok, apcu_key_info('short'), apcu_add('short', 2), apcu_fetch('short'));
var_dump(apcu_fetch('forever'), Shm\Table::ttl('forever', 'apcu'));
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
bool(false)
bool(true)
bool(false)
int(1)
bool(true)
bool(true)
bool(false)
bool(false)
NULL
bool(true)
int(2)
int(1)
bool(false)
