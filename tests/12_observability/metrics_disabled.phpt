--TEST--
Shm\Table: observability: metrics() on a disabled table throws, like every other method
--INI--
table.enabled=0
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
try {
    Shm\Table::metrics();
    echo "no exception\n";
} catch (Shm\TableException $e) {
    echo get_class($e), ': ', $e->getMessage(), "\n";
}
try {
    Shm\Table::metrics('extra');
} catch (ArgumentCountError $e) {
    echo $e->getMessage(), "\n";
}
?>
--EXPECT--
Shm\TableException: Shm\Table is disabled; set table.enabled=1 to use it
Shm\Table::metrics() expects exactly 0 arguments, 1 given
