--TEST--
Shm\Table: ini: a table.memory that can't be mapped makes the table unavailable, naming table.memory
--INI--
table.memory=1048576G
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
try {
    Shm\Table::set('k', 1);
} catch (Shm\TableException $e) {
    echo get_class($e), ': ', $e->getMessage(), "\n";
}
?>
--EXPECTF--
Shm\TableException: Shm\Table is unavailable: mmap(%d bytes) failed: %s; lower table.memory
