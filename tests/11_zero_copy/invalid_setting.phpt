--TEST--
Shm\Table: zero-copy: an unknown table.zero_copy or a bad table.zero_copy_budget makes the table unavailable with a message naming the setting
--INI--
table.zero_copy=sometimes
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
Shm\Table is unavailable: table.zero_copy=sometimes is not valid; use auto, 1 or 0
