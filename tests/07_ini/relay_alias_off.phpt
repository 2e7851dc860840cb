--TEST--
Shm\Table: ini: without table.relay_alias there is no Relay\Table
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; table_skip_if_relay(); ?>
--FILE--
<?php
var_dump(class_exists('Relay\Table'));
?>
--EXPECT--
bool(false)
