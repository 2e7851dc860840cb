--TEST--
Shm\Table: add: stores only when the key is absent
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

var_dump(Table::add('k', 'first'));
var_dump(Table::add('k', 'second'));
var_dump(Table::get('k'));
// a stored null still counts as present
Table::set('n', null);
var_dump(Table::add('n', 'x'), Table::get('n'));
// after a delete the key can be added again
Table::delete('k');
var_dump(Table::add('k', ['third']), Table::get('k'));
// namespaces are separate
var_dump(Table::add('k', 'ns', null, 'ns'), Table::get('k', 'ns'), Table::get('k'));
// with an expiry
var_dump(Table::add('e', 1, 100));
$ttl = Table::ttl('e');
var_dump($ttl >= 1 && $ttl <= 100);
var_dump(Table::add(key: 'named', value: 5, namespace: 'ns'), Table::get('named', 'ns'));
?>
--EXPECT--
bool(true)
bool(false)
string(5) "first"
bool(false)
NULL
bool(true)
array(1) {
  [0]=>
  string(5) "third"
}
bool(true)
string(2) "ns"
array(1) {
  [0]=>
  string(5) "third"
}
bool(true)
bool(true)
bool(true)
int(5)
