--TEST--
Shm\Table: errors: a negative table.memory with a suffix or spaces is refused the same way
--INI--
table.memory="  -64M"
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
Shm\Table is unavailable: table.memory=  -64M is negative; use a size of at least 1M, in bytes or with K, M or G (e.g. 64M)
