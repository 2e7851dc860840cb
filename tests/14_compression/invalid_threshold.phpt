--TEST--
Shm\Table: compression: a negative or unparsable table.compression_threshold makes the table unavailable, naming the setting
--INI--
table.compression_threshold=-1
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
Shm\Table is unavailable: table.compression_threshold=-1 is not valid; use a size in bytes, or with K or M (e.g. 1K)
