--TEST--
Shm\Table: errors: a negative table.zero_copy_budget makes the table unavailable, naming the setting (it used to be accepted and shown as -1)
--INI--
table.zero_copy=1
table.zero_copy_budget=-1
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
try {
    var_dump(Shm\Table::stats()['zero_copy_budget']);
} catch (Shm\TableException $e) {
    echo $e->getMessage(), "\n";
}
?>
--EXPECT--
Shm\Table is unavailable: table.zero_copy_budget=-1 is negative; use a size in bytes or with K, M or G, or leave it empty
