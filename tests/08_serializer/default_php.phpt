--TEST--
Shm\Table: serializer: the default serializer is php and stores objects
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
var_dump(ini_get('table.serializer'), Shm\Table::stats()['serializer']);
$o = new ArrayObject(['a' => new stdClass]);
Shm\Table::set('o', $o);
var_dump(Shm\Table::get('o') == $o);
?>
--EXPECT--
string(3) "php"
string(3) "php"
bool(true)
