--TEST--
Shm\Table: TableException: a RuntimeException in the Shm namespace
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
var_dump(class_exists('Shm\TableException'));
$c = new ReflectionClass('Shm\TableException');
var_dump($c->getParentClass()->getName());
var_dump(is_subclass_of('Shm\TableException', 'RuntimeException'));
var_dump(is_subclass_of('Shm\TableException', 'Exception'));
$e = new Shm\TableException('msg', 7);
var_dump($e instanceof RuntimeException, $e->getMessage(), $e->getCode());
// the table throws it, catchable as RuntimeException
try {
    Shm\Table::set('k', 'a string');
    Shm\Table::increment('k');
} catch (RuntimeException $e) {
    echo get_class($e), "\n";
}
?>
--EXPECT--
bool(true)
string(16) "RuntimeException"
bool(true)
bool(true)
bool(true)
string(3) "msg"
int(7)
Shm\TableException
