--TEST--
Shm\Table: ini: table.serializer=msgpack (not supported) makes the table unavailable
--INI--
table.serializer=msgpack
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
try {
    Shm\Table::set('k', new stdClass);
} catch (Shm\TableException $e) {
    echo get_class($e), ': ', $e->getMessage(), "\n";
}
?>
--EXPECTF--
Shm\TableException: Shm\Table is unavailable: %Stable.serializer%S
