--TEST--
Shm\Table: touch: sets a new expiry on a live entry; false when missing
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

var_dump(Table::touch('missing', 10), Table::touch('missing', null), Table::exists('missing'));
Table::set('k', ['value']);
var_dump(Table::touch('k', 100));
$t = Table::ttl('k');
var_dump($t >= 1 && $t <= 100);
var_dump(Table::get('k'));
var_dump(Table::touch('k', 5), Table::ttl('k') <= 5);
var_dump(Table::touch('k', 0), Table::ttl('k'));
var_dump(Table::touch('k', 7), Table::touch('k', null), Table::ttl('k'));
var_dump(Table::getWithMeta('k')[1]['ttl']);
// namespaces
var_dump(Table::touch('k', 10, 'ns'));
Table::set('k', 1, null, 'ns');
var_dump(Table::touch('k', 10, 'ns'), Table::ttl('k', 'ns') <= 10, Table::ttl('k'));
var_dump(Table::touch(key: 'k', expire: null, namespace: 'ns'), Table::ttl('k', 'ns'));
?>
--EXPECT--
bool(false)
bool(false)
bool(false)
bool(true)
bool(true)
array(1) {
  [0]=>
  string(5) "value"
}
bool(true)
bool(true)
bool(true)
bool(false)
bool(true)
bool(true)
bool(false)
int(-1)
bool(false)
bool(true)
bool(true)
bool(false)
bool(true)
bool(false)
