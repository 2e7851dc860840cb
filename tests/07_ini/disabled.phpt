--TEST--
Shm\Table: ini: table.enabled=0 keeps the class but makes every method throw the disabled TableException
--INI--
table.enabled=0
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

var_dump(class_exists('Shm\Table'), class_exists('Shm\TableException'));
$calls = [
    'get' => fn() => Table::get('k'),
    'getWithMeta' => fn() => Table::getWithMeta('k'),
    'set' => fn() => Table::set('k', 'v'),
    'exists' => fn() => Table::exists('k'),
    'delete' => fn() => Table::delete('k'),
    'ttl' => fn() => Table::ttl('k'),
    'count' => fn() => Table::count(),
    'clear' => fn() => Table::clear(),
    'keys' => fn() => Table::keys(null),
    'memory' => fn() => Table::memory(),
    'namespaces' => fn() => Table::namespaces(),
    'clearAll' => fn() => Table::clearAll(),
    'fullscan' => fn() => iterator_to_array(Table::fullscan()),
    'stats' => fn() => Table::stats(),
    'add' => fn() => Table::add('k', 'v'),
    'increment' => fn() => Table::increment('k'),
    'decrement' => fn() => Table::decrement('k'),
    'cas' => fn() => Table::cas('k', 1, 2),
    'remember' => fn() => Table::remember('k', fn() => 'computed'),
    'touch' => fn() => Table::touch('k', 10),
    'getMany' => fn() => Table::getMany(['k']),
    'setMany' => fn() => Table::setMany(['k' => 1]),
    'deleteMany' => fn() => Table::deleteMany(['k']),
];
foreach ($calls as $name => $call) {
    try {
        $r = $call();
        echo $name, ': returned ', var_export($r, true), "\n";
    } catch (Shm\TableException $e) {
        echo $name, ': ', $e->getMessage(), "\n";
    }
}
// remember must not have run the callback
$ran = false;
try {
    Table::remember('k', function () use (&$ran) { $ran = true; return 1; });
} catch (Shm\TableException $e) {
}
var_dump($ran);
?>
--EXPECT--
bool(true)
bool(true)
get: Shm\Table is disabled; set table.enabled=1 to use it
getWithMeta: Shm\Table is disabled; set table.enabled=1 to use it
set: Shm\Table is disabled; set table.enabled=1 to use it
exists: Shm\Table is disabled; set table.enabled=1 to use it
delete: Shm\Table is disabled; set table.enabled=1 to use it
ttl: Shm\Table is disabled; set table.enabled=1 to use it
count: Shm\Table is disabled; set table.enabled=1 to use it
clear: Shm\Table is disabled; set table.enabled=1 to use it
keys: Shm\Table is disabled; set table.enabled=1 to use it
memory: Shm\Table is disabled; set table.enabled=1 to use it
namespaces: Shm\Table is disabled; set table.enabled=1 to use it
clearAll: Shm\Table is disabled; set table.enabled=1 to use it
fullscan: Shm\Table is disabled; set table.enabled=1 to use it
stats: Shm\Table is disabled; set table.enabled=1 to use it
add: Shm\Table is disabled; set table.enabled=1 to use it
increment: Shm\Table is disabled; set table.enabled=1 to use it
decrement: Shm\Table is disabled; set table.enabled=1 to use it
cas: Shm\Table is disabled; set table.enabled=1 to use it
remember: Shm\Table is disabled; set table.enabled=1 to use it
touch: Shm\Table is disabled; set table.enabled=1 to use it
getMany: Shm\Table is disabled; set table.enabled=1 to use it
setMany: Shm\Table is disabled; set table.enabled=1 to use it
deleteMany: Shm\Table is disabled; set table.enabled=1 to use it
bool(false)
