--TEST--
Shm\Table: types: shared instances and object cycles keep their identity structure
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

$shared = new stdClass;
$shared->v = 1;
Table::set('twice', [$shared, $shared, 'other' => new stdClass]);
$got = Table::get('twice');
var_dump($got[0] === $got[1], $got[0] === $got['other']);
$got[0]->v = 2;
var_dump($got[1]->v);

$node = new stdClass;
$node->name = 'self';
$node->self = $node;
Table::set('cycle', $node);
$got = Table::get('cycle');
var_dump($got->self === $got, $got->self->self->name);

$a = new stdClass;
$b = new stdClass;
$a->peer = $b;
$b->peer = $a;
Table::set('pair', $a);
$got = Table::get('pair');
var_dump($got->peer->peer === $got, $got->peer !== $got);
?>
--EXPECT--
bool(true)
bool(false)
int(2)
bool(true)
string(4) "self"
bool(true)
bool(true)
