--TEST--
Shm\Table: compression: an unknown table.compression makes the table unavailable, naming the setting and what is valid
--INI--
table.compression=brotli
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
Shm\Table is unavailable: table.compression=brotli is not valid; use none, lz4 or zstd
