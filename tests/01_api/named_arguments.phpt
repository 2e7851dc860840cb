--TEST--
Shm\Table: named arguments: Relay\Table-compatible parameter names work for every method
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

var_dump(Table::set(key: 'a', value: 'va', namespace: 'n'));
var_dump(Table::get(key: 'a', namespace: 'n'));
var_dump(Table::get(namespace: 'n', key: 'a'));
var_dump(Table::set(value: 'vb', key: 'b', expire: 100));
var_dump(Table::exists(key: 'b'), Table::ttl(key: 'b') > 0);
var_dump(Table::getWithMeta(key: 'a', namespace: 'n')[0]);
var_dump(Table::touch(key: 'b', expire: null), Table::ttl(namespace: null, key: 'b'));
var_dump(Table::count(namespace: 'n'), Table::memory(namespace: 'n') > 0);
var_dump(Table::keys(pattern: '*', namespace: 'n'));
var_dump(Table::add(key: 'c', value: 1, expire: 0));
var_dump(Table::increment(key: 'c', by: 2), Table::decrement(key: 'c', by: 1));
var_dump(Table::cas(key: 'c', expected: 2, new: 'two'), Table::get(key: 'c'));
var_dump(Table::remember(key: 'r', compute: fn() => 'computed', expire: 10));
var_dump(Table::getMany(keys: ['a'], namespace: 'n'));
var_dump(Table::setMany(values: ['m' => 1], expire: 10, namespace: 'n'));
var_dump(Table::deleteMany(keys: ['m'], namespace: 'n'));
var_dump(Table::delete(key: 'a', namespace: 'n'));
var_dump(iterator_count(Table::fullscan(match: '*', count: 10)));
var_dump(Table::clear(namespace: 'n'));
try {
    Table::get(key: 'a', nsp: 'n');
} catch (Error $e) {
    echo get_class($e), ': ', $e->getMessage(), "\n";
}
try {
    Table::touch(key: 'a');
} catch (ArgumentCountError $e) {
    echo get_class($e), "\n";
}
?>
--EXPECT--
bool(true)
string(2) "va"
string(2) "va"
bool(true)
bool(true)
bool(true)
string(2) "va"
bool(true)
bool(false)
int(1)
bool(true)
array(1) {
  [0]=>
  string(1) "a"
}
bool(true)
int(3)
int(2)
bool(true)
string(3) "two"
string(8) "computed"
array(1) {
  ["a"]=>
  string(2) "va"
}
bool(true)
int(1)
bool(true)
int(3)
bool(true)
Error: Unknown named parameter $nsp
ArgumentCountError
