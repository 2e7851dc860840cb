--TEST--
Shm\Table: errors: wrong argument types are TypeErrors from the engine
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
declare(strict_types=1);
use Shm\Table;

$calls = [
    fn() => Table::get(['k']),
    fn() => Table::get(5),
    fn() => Table::set('k', 1, 'soon'),
    fn() => Table::set('k', 1, null, 5),
    fn() => Table::increment('k', 1.5),
    fn() => Table::remember('k', 'no_such_function'),
    fn() => Table::getMany('k'),
    fn() => Table::setMany('k'),
    fn() => Table::touch('k', '10'),
];
foreach ($calls as $call) {
    try {
        var_dump($call());
    } catch (TypeError $e) {
        echo $e->getMessage(), "\n";
    }
}
var_dump(Table::count());
?>
--EXPECT--
Shm\Table::get(): Argument #1 ($key) must be of type string, array given
Shm\Table::get(): Argument #1 ($key) must be of type string, int given
Shm\Table::set(): Argument #3 ($expire) must be of type ?int, string given
Shm\Table::set(): Argument #4 ($namespace) must be of type ?string, int given
Shm\Table::increment(): Argument #2 ($by) must be of type int, float given
Shm\Table::remember(): Argument #2 ($compute) must be a valid callback, function "no_such_function" not found or invalid function name
Shm\Table::getMany(): Argument #1 ($keys) must be of type array, string given
Shm\Table::setMany(): Argument #1 ($values) must be of type array, string given
Shm\Table::touch(): Argument #2 ($expire) must be of type ?int, string given
int(0)
