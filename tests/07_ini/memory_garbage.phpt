--TEST--
Shm\Table: ini: a table.memory that is not a size makes the table unavailable, naming table.memory
--INI--
table.memory=lots
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
try {
    var_dump(Shm\Table::stats()['memory_size']);
} catch (Shm\TableException $e) {
    echo get_class($e), ': ', $e->getMessage(), "\n";
}
?>
--EXPECTF--
Shm\TableException: Shm\Table is unavailable: %Stable.memory%S
