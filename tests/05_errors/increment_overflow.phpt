--TEST--
Shm\Table: errors: increment past PHP_INT_MAX and decrement past PHP_INT_MIN throw and leave the value
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

$cases = [
    ['max', PHP_INT_MAX, fn() => Table::increment('max')],
    ['max', PHP_INT_MAX, fn() => Table::increment('max', PHP_INT_MAX)],
    ['near', PHP_INT_MAX - 5, fn() => Table::increment('near', 6)],
    ['min', PHP_INT_MIN, fn() => Table::decrement('min')],
    ['min2', PHP_INT_MIN + 1, fn() => Table::decrement('min2', 2)],
    ['neg', -2, fn() => Table::increment('neg', PHP_INT_MIN)],
    ['zero', 0, fn() => Table::decrement('zero', PHP_INT_MIN)],
    ['pos', 1, fn() => Table::decrement('pos', PHP_INT_MIN)],
    ['minus', PHP_INT_MIN, fn() => Table::increment('minus', -1)],
];
foreach ($cases as [$key, $start, $call]) {
    Table::set($key, $start);
    try {
        var_dump($call());
    } catch (Shm\TableException $e) {
        echo $e->getMessage(), "\n";
    }
    echo $key, ' unchanged: ', var_export(Table::get($key) === $start, true), "\n";
}
// a missing key starts from 0: decrementing it by PHP_INT_MIN overflows too
try {
    Table::decrement('absent', PHP_INT_MIN);
} catch (Shm\TableException $e) {
    echo $e->getMessage(), "\n";
}
var_dump(Table::exists('absent'));
// the boundary values themselves are fine
Table::set('b', PHP_INT_MAX - 1);
var_dump(Table::increment('b'));
Table::set('c', PHP_INT_MIN + 1);
var_dump(Table::decrement('c'));
?>
--EXPECT--
Shm\Table::increment(): integer overflow
max unchanged: true
Shm\Table::increment(): integer overflow
max unchanged: true
Shm\Table::increment(): integer overflow
near unchanged: true
Shm\Table::decrement(): integer overflow
min unchanged: true
Shm\Table::decrement(): integer overflow
min2 unchanged: true
Shm\Table::increment(): integer overflow
neg unchanged: true
Shm\Table::decrement(): integer overflow
zero unchanged: true
Shm\Table::decrement(): integer overflow
pos unchanged: true
Shm\Table::increment(): integer overflow
minus unchanged: true
Shm\Table::decrement(): integer overflow
bool(false)
int(9223372036854775807)
int(-9223372036854775808)
