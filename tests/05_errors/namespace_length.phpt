--TEST--
Shm\Table: errors: an empty or 256-byte namespace is a ValueError naming the argument; 255 bytes is fine
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

$ok = str_repeat('n', 255);
$long = str_repeat('n', 256);
var_dump(Table::set('k', 'in 255', null, $ok), Table::get('k', $ok));
Table::set('k', 'default');
foreach (['', $long] as $bad) {
    $calls = [
        fn() => Table::get('k', $bad),
        fn() => Table::getWithMeta('k', $bad),
        fn() => Table::set('k', 'v', null, $bad),
        fn() => Table::exists('k', $bad),
        fn() => Table::delete('k', $bad),
        fn() => Table::ttl('k', $bad),
        fn() => Table::count($bad),
        fn() => Table::clear($bad),
        fn() => Table::keys(null, $bad),
        fn() => Table::memory($bad),
        fn() => Table::add('k', 'v', null, $bad),
        fn() => Table::increment('k', 1, null, $bad),
        fn() => Table::decrement('k', 1, null, $bad),
        fn() => Table::cas('k', 'default', 'v', $bad),
        fn() => Table::remember('k', fn() => 'v', null, $bad),
        fn() => Table::touch('k', null, $bad),
        fn() => Table::getMany(['k'], $bad),
        fn() => Table::setMany(['k' => 'v'], null, $bad),
        fn() => Table::deleteMany(['k'], $bad),
    ];
    foreach ($calls as $call) {
        try {
            var_dump($call());
        } catch (ValueError $e) {
            echo $e->getMessage(), "\n";
        }
    }
}
var_dump(Table::get('k'), Table::get('k', $ok), Table::namespaces() === [$ok], Table::count() + Table::count($ok));
?>
--EXPECT--
bool(true)
string(6) "in 255"
Shm\Table::get(): Argument #2 ($namespace) must be between 1 and 255 bytes long
Shm\Table::getWithMeta(): Argument #2 ($namespace) must be between 1 and 255 bytes long
Shm\Table::set(): Argument #4 ($namespace) must be between 1 and 255 bytes long
Shm\Table::exists(): Argument #2 ($namespace) must be between 1 and 255 bytes long
Shm\Table::delete(): Argument #2 ($namespace) must be between 1 and 255 bytes long
Shm\Table::ttl(): Argument #2 ($namespace) must be between 1 and 255 bytes long
Shm\Table::count(): Argument #1 ($namespace) must be between 1 and 255 bytes long
Shm\Table::clear(): Argument #1 ($namespace) must be between 1 and 255 bytes long
Shm\Table::keys(): Argument #2 ($namespace) must be between 1 and 255 bytes long
Shm\Table::memory(): Argument #1 ($namespace) must be between 1 and 255 bytes long
Shm\Table::add(): Argument #4 ($namespace) must be between 1 and 255 bytes long
Shm\Table::increment(): Argument #4 ($namespace) must be between 1 and 255 bytes long
Shm\Table::decrement(): Argument #4 ($namespace) must be between 1 and 255 bytes long
Shm\Table::cas(): Argument #4 ($namespace) must be between 1 and 255 bytes long
Shm\Table::remember(): Argument #4 ($namespace) must be between 1 and 255 bytes long
Shm\Table::touch(): Argument #3 ($namespace) must be between 1 and 255 bytes long
Shm\Table::getMany(): Argument #2 ($namespace) must be between 1 and 255 bytes long
Shm\Table::setMany(): Argument #3 ($namespace) must be between 1 and 255 bytes long
Shm\Table::deleteMany(): Argument #2 ($namespace) must be between 1 and 255 bytes long
Shm\Table::get(): Argument #2 ($namespace) must be between 1 and 255 bytes long
Shm\Table::getWithMeta(): Argument #2 ($namespace) must be between 1 and 255 bytes long
Shm\Table::set(): Argument #4 ($namespace) must be between 1 and 255 bytes long
Shm\Table::exists(): Argument #2 ($namespace) must be between 1 and 255 bytes long
Shm\Table::delete(): Argument #2 ($namespace) must be between 1 and 255 bytes long
Shm\Table::ttl(): Argument #2 ($namespace) must be between 1 and 255 bytes long
Shm\Table::count(): Argument #1 ($namespace) must be between 1 and 255 bytes long
Shm\Table::clear(): Argument #1 ($namespace) must be between 1 and 255 bytes long
Shm\Table::keys(): Argument #2 ($namespace) must be between 1 and 255 bytes long
Shm\Table::memory(): Argument #1 ($namespace) must be between 1 and 255 bytes long
Shm\Table::add(): Argument #4 ($namespace) must be between 1 and 255 bytes long
Shm\Table::increment(): Argument #4 ($namespace) must be between 1 and 255 bytes long
Shm\Table::decrement(): Argument #4 ($namespace) must be between 1 and 255 bytes long
Shm\Table::cas(): Argument #4 ($namespace) must be between 1 and 255 bytes long
Shm\Table::remember(): Argument #4 ($namespace) must be between 1 and 255 bytes long
Shm\Table::touch(): Argument #3 ($namespace) must be between 1 and 255 bytes long
Shm\Table::getMany(): Argument #2 ($namespace) must be between 1 and 255 bytes long
Shm\Table::setMany(): Argument #3 ($namespace) must be between 1 and 255 bytes long
Shm\Table::deleteMany(): Argument #2 ($namespace) must be between 1 and 255 bytes long
string(7) "default"
string(6) "in 255"
bool(true)
int(2)
