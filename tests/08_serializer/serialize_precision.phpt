--TEST--
Shm\Table: serializer: a low serialize_precision doesn't change stored floats, in objects included
--INI--
serialize_precision=5
precision=5
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

$f = 0.1 + 0.2;
$o = new stdClass;
$o->f = $f;
Table::set('scalar', $f);
Table::set('array', [$f, ['x' => $f]]);
Table::set('object', $o);
Table::set('mixed', ['o' => $o, 'f' => $f]);
var_dump(Table::get('scalar') === $f);
var_dump(Table::get('array') === [$f, ['x' => $f]]);
var_dump(Table::get('object')->f === $f, Table::get('object') == $o);
var_dump(Table::get('mixed')['f'] === $f, Table::get('mixed')['o']->f === $f);
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
