--TEST--
Shm\Table: serializer: table.serializer=php set explicitly
--INI--
table.serializer=php
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
var_dump(Shm\Table::stats()['serializer']);
$a = [1];
$a[] = &$a[0];
Shm\Table::set('r', $a);
$b = Shm\Table::get('r');
$b[0] = 'shared';
var_dump($b[1]);
?>
--EXPECT--
string(3) "php"
string(6) "shared"
