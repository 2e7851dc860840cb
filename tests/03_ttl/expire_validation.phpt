--TEST--
Shm\Table: ttl: a negative or too large $expire is a ValueError and changes nothing
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

Table::set('k', 'old', 1000);
Table::set('c', 5);
$calls = [
    'set -1' => fn() => Table::set('k', 'new', -1),
    'set min' => fn() => Table::set('k', 'new', PHP_INT_MIN),
    'set big' => fn() => Table::set('k', 'new', 2147483648),
    'set max' => fn() => Table::set('k', 'new', PHP_INT_MAX),
    'add -1' => fn() => Table::add('absent', 'new', -1),
    'add big' => fn() => Table::add('absent', 'new', 2147483648),
    'increment -1' => fn() => Table::increment('c', 1, -1),
    'decrement big' => fn() => Table::decrement('c', 1, 2147483648),
    'increment new -1' => fn() => Table::increment('absent', 1, -1),
    'touch -1' => fn() => Table::touch('k', -1),
    'touch big' => fn() => Table::touch('k', 2147483648),
    'setMany -1' => fn() => Table::setMany(['k' => 'new', 'absent' => 1], -1),
    'setMany big' => fn() => Table::setMany(['k' => 'new'], 2147483648),
    'remember -5' => fn() => Table::remember('absent', fn() => 'computed', -5),
    'remember big' => fn() => Table::remember('absent', fn() => 'computed', 2147483648),
];
foreach ($calls as $name => $call) {
    try {
        var_dump($call());
    } catch (ValueError $e) {
        echo str_pad($name, 17), $e->getMessage(), "\n";
    }
}
$t = Table::ttl('k');
var_dump(Table::get('k'), $t > 900 && $t <= 1000, Table::get('c'), Table::exists('absent'), Table::count());
?>
--EXPECT--
set -1           Shm\Table::set(): Argument #3 ($expire) must be greater than or equal to 0
set min          Shm\Table::set(): Argument #3 ($expire) must be greater than or equal to 0
set big          Shm\Table::set(): Argument #3 ($expire) must be less than or equal to 2147483647
set max          Shm\Table::set(): Argument #3 ($expire) must be less than or equal to 2147483647
add -1           Shm\Table::add(): Argument #3 ($expire) must be greater than or equal to 0
add big          Shm\Table::add(): Argument #3 ($expire) must be less than or equal to 2147483647
increment -1     Shm\Table::increment(): Argument #3 ($expire) must be greater than or equal to 0
decrement big    Shm\Table::decrement(): Argument #3 ($expire) must be less than or equal to 2147483647
increment new -1 Shm\Table::increment(): Argument #3 ($expire) must be greater than or equal to 0
touch -1         Shm\Table::touch(): Argument #2 ($expire) must be greater than or equal to 0
touch big        Shm\Table::touch(): Argument #2 ($expire) must be less than or equal to 2147483647
setMany -1       Shm\Table::setMany(): Argument #2 ($expire) must be greater than or equal to 0
setMany big      Shm\Table::setMany(): Argument #2 ($expire) must be less than or equal to 2147483647
remember -5      Shm\Table::remember(): Argument #3 ($expire) must be greater than or equal to 0
remember big     Shm\Table::remember(): Argument #3 ($expire) must be less than or equal to 2147483647
string(3) "old"
bool(true)
int(5)
bool(false)
int(2)
