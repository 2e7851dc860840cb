--TEST--
Shm\Table: reflection: parameter names, types, order and defaults match the spec
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
function sig(ReflectionMethod $m): string {
    $ps = [];
    foreach ($m->getParameters() as $p) {
        $s = ($p->hasType() ? $p->getType() . ' ' : '') . ($p->isPassedByReference() ? '&' : '')
            . ($p->isVariadic() ? '...' : '') . '$' . $p->getName();
        if ($p->isOptional()) {
            $s .= ' = ' . ($p->isDefaultValueAvailable() ? strtolower(var_export($p->getDefaultValue(), true)) : '?');
        }
        $ps[] = $s;
    }
    return $m->getName() . '(' . implode(', ', $ps) . ')';
}
foreach (['get', 'getWithMeta', 'set', 'exists', 'delete', 'ttl', 'count', 'clear', 'keys', 'memory',
    'namespaces', 'clearAll', 'fullscan', 'stats', 'add', 'increment', 'decrement', 'cas', 'remember', 'touch',
    'getMany', 'setMany', 'deleteMany', 'deleteIf'] as $name) {
    echo sig(new ReflectionMethod('Shm\Table', $name)), "\n";
}
?>
--EXPECT--
get(string $key, ?string $namespace = null)
getWithMeta(string $key, ?string $namespace = null)
set(string $key, mixed $value, ?int $expire = null, ?string $namespace = null)
exists(string $key, ?string $namespace = null)
delete(string $key, ?string $namespace = null)
ttl(string $key, ?string $namespace = null)
count(?string $namespace = null)
clear(?string $namespace = null)
keys(mixed $pattern, ?string $namespace = null)
memory(?string $namespace = null)
namespaces()
clearAll()
fullscan(mixed $match = null, int $count = 0)
stats()
add(string $key, mixed $value, ?int $expire = null, ?string $namespace = null)
increment(string $key, int $by = 1, ?int $expire = null, ?string $namespace = null)
decrement(string $key, int $by = 1, ?int $expire = null, ?string $namespace = null)
cas(string $key, mixed $expected, mixed $new, ?string $namespace = null)
remember(string $key, callable $compute, ?int $expire = null, ?string $namespace = null)
touch(string $key, ?int $expire, ?string $namespace = null)
getMany(array $keys, ?string $namespace = null)
setMany(array $values, ?int $expire = null, ?string $namespace = null, ?array &$failed = null)
deleteMany(array $keys, ?string $namespace = null)
deleteIf(string $key, mixed $expected, ?string $namespace = null)
