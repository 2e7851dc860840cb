--TEST--
Shm\Table: the class cannot be instantiated (its API is static); new Shm\Table('log') is an Error naming the way to pass a namespace
--INI--
table.relay_alias=1
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

$attempts = [
    'new with a namespace' => fn() => new Table('log'),
    'new without arguments' => fn() => new Table(),
    'ReflectionClass::newInstance' => fn() => (new ReflectionClass(Table::class))->newInstance(),
    'newInstanceWithoutConstructor' => fn() => (new ReflectionClass(Table::class))->newInstanceWithoutConstructor(),
    'unserialize' => fn() => unserialize('O:9:"Shm\Table":0:{}'),
];
if (class_exists('Relay\Table', false)) {
    $attempts['the Relay\Table alias'] = fn() => new Relay\Table('log');
}
foreach ($attempts as $name => $attempt) {
    try {
        var_dump($attempt());
    } catch (Throwable $e) {
        echo $name, ': ', get_class($e), ': ', $e->getMessage(), "\n";
    }
}
/* The static API is untouched, namespaces included. */
var_dump(Table::set('k', 'v', null, 'log'), Table::get('k', 'log'));
?>
--EXPECT--
new with a namespace: Error: Cannot instantiate Shm\Table: its methods are static; pass the namespace to each call instead, e.g. Shm\Table::get($key, 'log')
new without arguments: Error: Cannot instantiate Shm\Table: its methods are static; pass the namespace to each call instead, e.g. Shm\Table::get($key, 'log')
ReflectionClass::newInstance: Error: Cannot instantiate Shm\Table: its methods are static; pass the namespace to each call instead, e.g. Shm\Table::get($key, 'log')
newInstanceWithoutConstructor: ReflectionException: Class Shm\Table is an internal class marked as final that cannot be instantiated without invoking its constructor
unserialize: Exception: Unserialization of 'Shm\Table' is not allowed
the Relay\Table alias: Error: Cannot instantiate Shm\Table: its methods are static; pass the namespace to each call instead, e.g. Shm\Table::get($key, 'log')
bool(true)
string(1) "v"
