--TEST--
Shm\Table: ini: table.relay_alias=1 registers Relay\Table as an alias of Shm\Table
--INI--
table.relay_alias=1
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; table_skip_if_relay(); ?>
--FILE--
<?php
var_dump(class_exists('Relay\Table'));
var_dump((new ReflectionClass('Relay\Table'))->getName());
var_dump(Relay\Table::set('k', ['via' => 'relay']));
var_dump(Relay\Table::get('k'), Shm\Table::get('k'));
var_dump(Relay\Table::get(key: 'k', namespace: null) === Shm\Table::get('k'));
Shm\Table::set('n', 1, null, 'ns');
var_dump(Relay\Table::count('ns'), Relay\Table::increment('n', 1, null, 'ns'));
?>
--EXPECT--
bool(true)
string(9) "Shm\Table"
bool(true)
array(1) {
  ["via"]=>
  string(5) "relay"
}
array(1) {
  ["via"]=>
  string(5) "relay"
}
bool(true)
int(1)
int(2)
