--TEST--
Shm\Table: getWithMeta: an overwrite moves updated but keeps created
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

Table::set('k', 1);
[, $m1] = Table::getWithMeta('k');
sleep(2);
Table::set('k', 2);
[$v, $m2] = Table::getWithMeta('k');
var_dump($v);
var_dump($m2['created'] === $m1['created']);
var_dump($m2['updated'] > $m1['updated']);
var_dump($m2['updated'] >= $m2['created'] + 1);
?>
--EXPECT--
int(2)
bool(true)
bool(true)
bool(true)
