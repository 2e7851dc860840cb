--TEST--
Shm\Table: types: integer-like string keys come back as int keys, other numeric strings stay strings
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

$a = [];
foreach (['123', '0', '-5', '0123', '1.5', ' 1', '1 ', '-0', '9223372036854775807', '9223372036854775808', 'x'] as $i => $k) {
    $a[$k] = $i;
}
Table::set('a', $a);
$b = Table::get('a');
var_dump($b === $a);
foreach (array_keys($b) as $k) {
    echo var_export($k, true), "\n";
}
// the int keys are reachable both ways
var_dump($b[123], $b['123'], $b[-5], $b['0123'], $b[PHP_INT_MAX]);
?>
--EXPECT--
bool(true)
123
0
-5
'0123'
'1.5'
' 1'
'1 '
'-0'
9223372036854775807
'9223372036854775808'
'x'
int(0)
int(0)
int(2)
int(3)
int(8)
