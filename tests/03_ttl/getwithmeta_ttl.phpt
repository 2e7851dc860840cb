--TEST--
Shm\Table: ttl: getWithMeta reports -1 for never and the seconds left otherwise
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

Table::set('never', 1);
Table::set('soon', 1, 60);
var_dump(Table::getWithMeta('never')[1]['ttl']);
$t = Table::getWithMeta('soon')[1]['ttl'];
var_dump($t >= 1 && $t <= 60);
var_dump(abs($t - Table::ttl('soon')) <= 1);
Table::touch('never', 30);
$t = Table::getWithMeta('never')[1]['ttl'];
var_dump($t >= 1 && $t <= 30);
Table::touch('soon', null);
var_dump(Table::getWithMeta('soon')[1]['ttl']);
?>
--EXPECT--
int(-1)
bool(true)
bool(true)
bool(true)
int(-1)
