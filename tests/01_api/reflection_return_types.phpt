--TEST--
Shm\Table: reflection: return types match the stub
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
foreach (['get', 'getWithMeta', 'set', 'exists', 'delete', 'ttl', 'count', 'clear', 'keys', 'memory',
    'namespaces', 'clearAll', 'fullscan', 'stats', 'add', 'increment', 'decrement', 'cas', 'remember', 'touch',
    'getMany', 'setMany', 'deleteMany', 'deleteIf'] as $name) {
    $m = new ReflectionMethod('Shm\Table', $name);
    echo $name, ': ', $m->getReturnType() ?? '(none)', "\n";
}
?>
--EXPECT--
get: mixed
getWithMeta: array|false
set: bool
exists: bool
delete: bool
ttl: int|false
count: int|false
clear: bool
keys: array|false
memory: int|false
namespaces: array|false
clearAll: int|false
fullscan: Generator|false
stats: array|false
add: bool
increment: int|false
decrement: int|false
cas: bool
remember: mixed
touch: bool
getMany: array
setMany: bool
deleteMany: int
deleteIf: bool
