--TEST--
Shm\Table: ttl: writes treat an expired entry as absent (add, increment, touch, cas, delete, remember)
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

foreach (['add', 'incr', 'decr', 'touch', 'cas', 'delete', 'remember', 'set'] as $k) {
    Table::set($k, 41, 1);
}
sleep(2);
var_dump(Table::add('add', 'added'), Table::get('add'), Table::ttl('add'));
var_dump(Table::increment('incr'), Table::decrement('decr'));
var_dump(Table::touch('touch', 100), Table::exists('touch'));
var_dump(Table::cas('cas', 41, 42), Table::get('cas'));
var_dump(Table::delete('delete'));
var_dump(Table::remember('remember', fn() => 'recomputed'));
var_dump(Table::set('set', 'fresh'), Table::get('set'), Table::ttl('set'));
var_dump(Table::count());
?>
--EXPECT--
bool(true)
string(5) "added"
bool(false)
int(1)
int(-1)
bool(false)
bool(false)
bool(false)
NULL
bool(false)
string(10) "recomputed"
bool(true)
string(5) "fresh"
bool(false)
int(5)
