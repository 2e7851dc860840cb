--TEST--
Shm\Table: deleteIf: bad arguments throw before the table is touched
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

Table::set('k', 'v');
$calls = [
    'empty key' => fn() => Table::deleteIf('', 'v'),
    'long key' => fn() => Table::deleteIf(str_repeat('k', 70000), 'v'),
    'empty namespace' => fn() => Table::deleteIf('k', 'v', ''),
    'long namespace' => fn() => Table::deleteIf('k', 'v', str_repeat('n', 256)),
    'array key' => fn() => Table::deleteIf([], 'v'),
    'missing expected' => fn() => Table::deleteIf('k'),
    'closure' => fn() => Table::deleteIf('k', fn() => 1),
    'resource' => fn() => Table::deleteIf('k', STDIN),
];
foreach ($calls as $what => $call) {
    try {
        var_dump($call());
    } catch (Throwable $e) {
        echo "$what: ", get_class($e), ": ", $e->getMessage(), "\n";
    }
}
// nothing was deleted
var_dump(Table::get('k'));
?>
--EXPECTF--
empty key: ValueError: Shm\Table::deleteIf(): Argument #1 ($key) %s
long key: ValueError: Shm\Table::deleteIf(): Argument #1 ($key) %s
empty namespace: ValueError: Shm\Table::deleteIf(): Argument #3 ($namespace) %s
long namespace: ValueError: Shm\Table::deleteIf(): Argument #3 ($namespace) %s
array key: TypeError: Shm\Table::deleteIf(): Argument #1 ($key) must be of type string, array given
missing expected: ArgumentCountError: Shm\Table::deleteIf() expects at least 2 arguments, 1 given
closure: Exception: Serialization of 'Closure' is not allowed
resource: %s: Shm\Table::deleteIf(): Argument #2 ($expected) %s
string(1) "v"
