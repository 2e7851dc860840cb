--TEST--
Shm\Table: types: an array that contains itself through a reference round-trips
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

$a = ['x' => 1];
$a['self'] = &$a;
var_dump(Table::set('rec', $a));
$b = Table::get('rec');
var_dump(is_array($b), $b['x'], $b['self']['x'], $b['self']['self']['self']['x']);
// the inner levels are one and the same array
$b['self']['x'] = 2;
var_dump($b['self']['self']['x'], $b['self']['self']['self']['self']['x']);

$o = new stdClass;
$o->list = [1, 2];
$o->list[] = &$o->list;
var_dump(Table::set('orec', $o));
$p = Table::get('orec');
var_dump($p->list[0], $p->list[2][1], $p->list[2][2][2][0]);
?>
--EXPECT--
bool(true)
bool(true)
int(1)
int(1)
int(1)
int(2)
int(2)
bool(true)
int(1)
int(2)
int(1)
