--TEST--
Shm\Table: ini: table.enabled=0 makes fullscan() throw when called, not only when iterated
--INI--
table.enabled=0
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
try {
    $g = Shm\Table::fullscan();
    echo "returned ", get_debug_type($g), "\n";
} catch (Shm\TableException $e) {
    echo $e->getMessage(), "\n";
}
?>
--EXPECT--
Shm\Table is disabled; set table.enabled=1 to use it
