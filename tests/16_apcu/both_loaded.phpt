--TEST--
Shm\Table: APCu API: with the real APCu loaded too, in either order, table.apcu_compat steps aside with one startup warning
--SKIPIF--
<?php
require __DIR__ . '/../skipif.inc'; require __DIR__ . '/apcu.inc'; table_apcu_skipif();
if (!table_apcu_real_so()) die('skip php-apcu (apcu.so) is not installed');
?>
--ENV--
PHP_INI_SCAN_DIR={PWD}/no-conf.d
--FILE--
<?php
require __DIR__ . '/apcu.inc';
$so = table_apcu_real_so();
// The real APCu answers: its APCUIterator exists, and what it stores is not in the table.
$code = 'var_dump(class_exists("APCUIterator"), apcu_store("k", 1), apcu_fetch("k"), Shm\Table::get("k", "apcu"));';
$ini = ['-d', 'table.apcu_compat=1', '-d', 'apc.enable_cli=1'];
echo "== APCu first\n", table_apcu_php($code, ['-d', "extension=$so"], $ini);
echo "== table first\n", table_apcu_php($code, [], array_merge(['-d', "extension=$so"], $ini));
echo "== compat off: no warning\n", table_apcu_php($code, ['-d', "extension=$so"], ['-d', 'apc.enable_cli=1']);
?>
--EXPECTF--
== APCu first
%AWarning: PHP Startup: table.apcu_compat=1 is ignored: the APCu extension is loaded and keeps serving the apcu_* functions itself. Unload APCu (or set table.apcu_compat=0) to serve them from the table in Unknown on line 0
bool(true)
bool(true)
int(1)
NULL
== table first
%AWarning: PHP Startup: table.apcu_compat=1 is ignored: the APCu extension is loaded and keeps serving the apcu_* functions itself. Unload APCu (or set table.apcu_compat=0) to serve them from the table in Unknown on line 0
bool(true)
bool(true)
int(1)
NULL
== compat off: no warning
bool(true)
bool(true)
int(1)
NULL
