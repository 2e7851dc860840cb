--TEST--
Shm\Table: memory: bytes held by one namespace's entries
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

var_dump(Table::memory(), Table::memory('ns'));
Table::set('small', 'x');
$m1 = Table::memory();
var_dump(is_int($m1) && $m1 > 0);
Table::set('big', str_repeat('y', 100000));
$m2 = Table::memory();
var_dump($m2 - $m1 >= 100000);
// the other namespace is untouched
var_dump(Table::memory('ns'));
Table::set('big', str_repeat('z', 100000), null, 'ns');
var_dump(Table::memory('ns') >= 100000, Table::memory() === $m2);
// replacing with a smaller value shrinks it, deleting gives it back
Table::set('big', 'tiny');
var_dump(Table::memory() < $m1 + 1000);
Table::delete('big');
Table::delete('small');
var_dump(Table::memory());
var_dump(Table::memory(namespace: 'ns') >= 100000);
?>
--EXPECT--
int(0)
int(0)
bool(true)
bool(true)
int(0)
bool(true)
bool(true)
bool(true)
int(0)
bool(true)
