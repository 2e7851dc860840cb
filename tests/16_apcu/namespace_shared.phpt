--TEST--
Shm\Table: APCu API: APCu's keys live in the namespace "apcu", shared with Shm\Table; apcu_clear_cache() clears only them
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; require __DIR__ . '/apcu.inc'; table_apcu_skipif(); ?>
--ENV--
PHP_INI_SCAN_DIR={PWD}/no-conf.d
--INI--
table.apcu_compat=1
apc.enable_cli=1
--FILE--
<?php
use Shm\Table;
apcu_store('shared', ['from' => 'apcu']);
Table::set('shared', 'default namespace');
Table::set('other', 'x', null, 'app');
var_dump(Table::get('shared', 'apcu'), Table::get('shared'));
Table::set('from_table', 41, null, 'apcu');
var_dump(apcu_fetch('from_table'), apcu_inc('from_table'), Table::get('from_table', 'apcu'));
var_dump(Table::count('apcu'), in_array('apcu', Table::namespaces(), true));
var_dump(apcu_clear_cache(), Table::count('apcu'), Table::get('shared'), Table::get('other', 'app'), apcu_fetch('shared'));
// And Shm\Table::clear('apcu') is an apcu_clear_cache().
apcu_store('again', 1);
Table::clear('apcu');
var_dump(apcu_exists('again'));
?>
--EXPECT--
array(1) {
  ["from"]=>
  string(4) "apcu"
}
string(17) "default namespace"
int(41)
int(42)
int(42)
int(2)
bool(true)
bool(true)
int(0)
string(17) "default namespace"
string(1) "x"
bool(false)
bool(false)
