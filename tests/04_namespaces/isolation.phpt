--TEST--
Shm\Table: namespaces: the same key in different namespaces holds different values
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

Table::set('k', 'default');
Table::set('k', 'one', null, 'one');
Table::set('k', ['two'], null, 'two');
Table::increment('counter', 5, null, 'one');
Table::increment('counter', 7, null, 'two');
var_dump(Table::get('k'), Table::get('k', 'one'), Table::get('k', 'two'));
var_dump(Table::get('counter'), Table::get('counter', 'one'), Table::get('counter', 'two'));
Table::delete('k', 'one');
var_dump(Table::get('k'), Table::get('k', 'one'), Table::get('k', 'two'));
var_dump(Table::exists('k', 'three'));
var_dump(Table::add('k', 'added', null, 'one'), Table::add('k', 'not added', null, 'two'));
var_dump(Table::get('k', 'one'), Table::get('k', 'two'));
// namespace names are exact byte strings
Table::set('k', 'upper', null, 'ONE');
Table::set('k', 'nul', null, "one\0");
var_dump(Table::get('k', 'one'), Table::get('k', 'ONE'), Table::get('k', "one\0"));
?>
--EXPECT--
string(7) "default"
string(3) "one"
array(1) {
  [0]=>
  string(3) "two"
}
NULL
int(5)
int(7)
string(7) "default"
NULL
array(1) {
  [0]=>
  string(3) "two"
}
bool(false)
bool(true)
bool(false)
string(5) "added"
array(1) {
  [0]=>
  string(3) "two"
}
string(5) "added"
string(5) "upper"
string(3) "nul"
