--TEST--
Shm\Table: errors: a negative table.memory makes the table unavailable with a message naming the setting (not an mmap of 2^64 - 1 bytes)
--INI--
table.memory=-1
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
foreach (['set' => fn() => Shm\Table::set('k', 1), 'stats' => fn() => Shm\Table::stats()] as $name => $call) {
    try {
        $call();
    } catch (Shm\TableException $e) {
        echo $name, ': ', $e->getMessage(), "\n";
    }
}
?>
--EXPECT--
set: Shm\Table is unavailable: table.memory=-1 is negative; use a size of at least 1M, in bytes or with K, M or G (e.g. 64M)
stats: Shm\Table is unavailable: table.memory=-1 is negative; use a size of at least 1M, in bytes or with K, M or G (e.g. 64M)
