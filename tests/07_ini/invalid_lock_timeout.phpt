--TEST--
Shm\Table: ini: a negative table.lock_timeout makes the table unavailable with a message naming the setting
--INI--
table.lock_timeout=-1
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
try {
    Shm\Table::set('k', 1);
} catch (Shm\TableException $e) {
    echo $e->getMessage(), "\n";
}
?>
--EXPECT--
Shm\Table is unavailable: table.lock_timeout=-1 is not valid; use milliseconds from 1 to 3600000, or 0 for 10 s plus 1 s per GiB of table.memory
