--TEST--
Shm\Table: errors: an empty key is a ValueError naming the method and argument, and stores nothing
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

Table::set('k', 'old');
$calls = [
    fn() => Table::get(''),
    fn() => Table::getWithMeta(''),
    fn() => Table::set('', 'v'),
    fn() => Table::exists(''),
    fn() => Table::delete(''),
    fn() => Table::ttl(''),
    fn() => Table::add('', 'v'),
    fn() => Table::increment(''),
    fn() => Table::decrement(''),
    fn() => Table::cas('', 'old', 'new'),
    fn() => Table::remember('', fn() => 'computed'),
    fn() => Table::touch('', 10),
    fn() => Table::set('', 'v', null, 'ns'),
];
foreach ($calls as $call) {
    try {
        var_dump($call());
    } catch (ValueError $e) {
        echo $e->getMessage(), "\n";
    }
}
var_dump(Table::count(), Table::count('ns'), Table::get('k'), Table::keys(null));
?>
--EXPECT--
Shm\Table::get(): Argument #1 ($key) must not be empty
Shm\Table::getWithMeta(): Argument #1 ($key) must not be empty
Shm\Table::set(): Argument #1 ($key) must not be empty
Shm\Table::exists(): Argument #1 ($key) must not be empty
Shm\Table::delete(): Argument #1 ($key) must not be empty
Shm\Table::ttl(): Argument #1 ($key) must not be empty
Shm\Table::add(): Argument #1 ($key) must not be empty
Shm\Table::increment(): Argument #1 ($key) must not be empty
Shm\Table::decrement(): Argument #1 ($key) must not be empty
Shm\Table::cas(): Argument #1 ($key) must not be empty
Shm\Table::remember(): Argument #1 ($key) must not be empty
Shm\Table::touch(): Argument #1 ($key) must not be empty
Shm\Table::set(): Argument #1 ($key) must not be empty
int(1)
int(0)
string(3) "old"
array(1) {
  [0]=>
  string(1) "k"
}
