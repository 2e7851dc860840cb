--TEST--
Shm\Table: reflection: a final class whose public methods are all static
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
$c = new ReflectionClass('Shm\Table');
var_dump($c->getName(), $c->isFinal(), $c->isInternal(), $c->isInterface(), $c->isAbstract());
var_dump($c->getNamespaceName(), $c->getShortName());
$expected = ['get', 'getWithMeta', 'set', 'exists', 'delete', 'ttl', 'count', 'clear', 'keys', 'memory',
    'namespaces', 'clearAll', 'fullscan', 'stats', 'add', 'increment', 'decrement', 'cas', 'remember', 'touch',
    'getMany', 'setMany', 'deleteMany', 'deleteIf'];
$expected[] = 'metrics';
$public = [];
foreach ($c->getMethods(ReflectionMethod::IS_PUBLIC) as $m) {
    $public[] = $m->getName();
    if (!$m->isStatic()) {
        echo $m->getName(), " is not static\n";
    }
}
sort($public);
sort($expected);
var_dump($public === $expected);
var_dump(array_values(array_diff($expected, $public)), array_values(array_diff($public, $expected)));
// a subclass is impossible
try {
    eval('class MyTable extends Shm\Table {}');
} catch (Throwable $e) {
    echo "cannot extend\n";
}
?>
--EXPECTF--
string(9) "Shm\Table"
bool(true)
bool(true)
bool(false)
bool(false)
string(3) "Shm"
string(5) "Table"
bool(true)
array(0) {
}
array(0) {
}

Fatal error: Class MyTable cannot extend final class Shm\Table in %s on line %d
