--TEST--
Shm\Table: errors: a resource, top-level or nested in arrays, is a TypeError and the old value stays
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

$fp = fopen('php://memory', 'r');
Table::set('k', 'old');
$calls = [
    fn() => Table::set('k', $fp),
    fn() => Table::set('k', [1, 2, $fp]),
    fn() => Table::set('k', ['a' => ['b' => ['c' => $fp]]]),
    fn() => Table::set('new', [$fp]),
    fn() => Table::add('new', $fp),
    fn() => Table::setMany(['k' => 'fine', 'new' => ['x' => $fp]]),
    fn() => Table::cas('k', 'old', [$fp]),
];
foreach ($calls as $call) {
    try {
        var_dump($call());
    } catch (TypeError $e) {
        echo $e->getMessage(), "\n";
    }
}
try {
    Table::remember('new', fn() => $fp);
} catch (TypeError $e) {
    echo "remember: TypeError\n";
}
fclose($fp);
try {
    Table::set('k', $fp);
} catch (TypeError $e) {
    echo 'closed: ', $e->getMessage(), "\n";
}
var_dump(Table::get('k'), Table::exists('new'), Table::count());
?>
--EXPECT--
Shm\Table::set(): Argument #2 ($value) cannot contain a resource
Shm\Table::set(): Argument #2 ($value) cannot contain a resource
Shm\Table::set(): Argument #2 ($value) cannot contain a resource
Shm\Table::set(): Argument #2 ($value) cannot contain a resource
Shm\Table::add(): Argument #2 ($value) cannot contain a resource
Shm\Table::setMany(): Argument #1 ($values) cannot contain a resource
Shm\Table::cas(): Argument #3 ($new) cannot contain a resource
remember: TypeError
closed: Shm\Table::set(): Argument #2 ($value) cannot contain a resource
string(3) "old"
bool(false)
int(1)
