--TEST--
Shm\Table: ini: with table.enabled=0 no segment is created, whatever table.memory says
--INI--
table.enabled=0
table.memory=1048576G
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
Shm\Table is disabled; set table.enabled=1 to use it
