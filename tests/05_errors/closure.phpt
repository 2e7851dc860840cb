--TEST--
Shm\Table: errors: closures can't be stored; the serializer's exception propagates and nothing changes
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

Table::set('k', 'old');
$f = fn() => 1;
$o = new stdClass;
$o->callback = $f;
$calls = [
    'top-level' => fn() => Table::set('k', $f),
    'in array' => fn() => Table::set('k', ['ok' => 1, 'f' => $f]),
    'in object' => fn() => Table::set('k', $o),
    'first-class callable' => fn() => Table::set('k', strlen(...)),
    'add' => fn() => Table::add('new', $f),
    'setMany' => fn() => Table::setMany(['k' => 'fine', 'new' => $f, 'other' => 'fine']),
    'cas' => fn() => Table::cas('k', 'old', $f),
];
foreach ($calls as $name => $call) {
    try {
        var_dump($call());
    } catch (Exception $e) {
        echo $name, ': ', get_class($e), ': ', $e->getMessage(), "\n";
    }
}
var_dump(Table::get('k'), Table::exists('new'), Table::exists('other'), Table::count());
?>
--EXPECT--
top-level: Exception: Serialization of 'Closure' is not allowed
in array: Exception: Serialization of 'Closure' is not allowed
in object: Exception: Serialization of 'Closure' is not allowed
first-class callable: Exception: Serialization of 'Closure' is not allowed
add: Exception: Serialization of 'Closure' is not allowed
setMany: Exception: Serialization of 'Closure' is not allowed
cas: Exception: Serialization of 'Closure' is not allowed
string(3) "old"
bool(false)
bool(false)
int(1)
