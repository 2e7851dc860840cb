--TEST--
Shm\Table: zero-copy: a table.zero_copy_budget that is not a size makes the table unavailable, naming the setting
--INI--
table.zero_copy=1
table.zero_copy_budget=lots
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
try {
    Shm\Table::get('k');
} catch (Shm\TableException $e) {
    echo $e->getMessage(), "\n";
}
?>
--EXPECT--
Shm\Table is unavailable: table.zero_copy_budget=lots is not a valid size; use bytes or a number with K, M or G
