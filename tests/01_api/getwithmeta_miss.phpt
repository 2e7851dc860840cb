--TEST--
Shm\Table: getWithMeta: false on a miss, [null, meta] for a stored null
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

var_dump(Table::getWithMeta('missing'));
var_dump(Table::getWithMeta('missing', 'ns'));
Table::set('n', null);
$r = Table::getWithMeta('n');
var_dump($r[0], $r[1]['cached'], $r[1]['ttl']);
Table::set('f', false);
$r = Table::getWithMeta('f');
var_dump($r[0]);
Table::delete('f');
var_dump(Table::getWithMeta('f'));
?>
--EXPECT--
bool(false)
bool(false)
NULL
bool(true)
int(-1)
bool(false)
bool(false)
