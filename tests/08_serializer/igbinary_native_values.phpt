--TEST--
Shm\Table: serializer: with igbinary, scalars, strings and plain arrays still come back identical
--INI--
table.serializer=igbinary
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; table_skip_unless_igbinary(); ?>
--FILE--
<?php
use Shm\Table;

$values = [null, true, false, 0, -1, PHP_INT_MAX, PHP_INT_MIN, 0.1 + 0.2, -0.0, INF, '', "a\0b", '123',
    [], [1, 2, 3], ['a' => ['b' => [null, 1.5]]], [5 => 'x', 'k' => 'y']];
$ok = 0;
foreach ($values as $i => $v) {
    Table::set("v$i", $v);
    $got = Table::get("v$i");
    $ok += $got === $v && (!is_float($v) || pack('E', $got) === pack('E', $v));
}
var_dump($ok === count($values));
Table::set('nan', NAN);
var_dump(is_nan(Table::get('nan')));
var_dump(Table::increment('v3'), Table::cas('v13', [], ['swapped']), Table::get('v13'));
?>
--EXPECT--
bool(true)
bool(true)
int(1)
bool(true)
array(1) {
  [0]=>
  string(7) "swapped"
}
