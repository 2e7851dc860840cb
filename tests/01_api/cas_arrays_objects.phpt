--TEST--
Shm\Table: cas: arrays and objects compare by their stored encoding
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

Table::set('a', [1, 2, 'x' => ['y' => true]]);
var_dump(Table::cas('a', [1, 2], 'no'));
var_dump(Table::cas('a', [1, 2, 'x' => ['y' => 1]], 'no'));
var_dump(Table::cas('a', [1, 2, 'x' => ['y' => true]], ['swapped']));
var_dump(Table::get('a'));

$o = new stdClass;
$o->p = 1;
Table::set('o', $o);
$other = new stdClass;
$other->p = 2;
var_dump(Table::cas('o', $other, 'no'));
$same = new stdClass;
$same->p = 1;
var_dump(Table::cas('o', $same, 'swapped'));
var_dump(Table::get('o'));

// an array never equals a scalar
Table::set('e', []);
var_dump(Table::cas('e', null, 1), Table::cas('e', false, 1), Table::cas('e', [], 'was empty'), Table::get('e'));
?>
--EXPECT--
bool(false)
bool(false)
bool(true)
array(1) {
  [0]=>
  string(7) "swapped"
}
bool(false)
bool(true)
string(7) "swapped"
bool(false)
bool(false)
bool(true)
string(9) "was empty"
