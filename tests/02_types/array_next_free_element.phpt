--TEST--
Shm\Table: types: appending to a fetched array picks the same next key as on the original
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

$a = [5 => 'x'];
Table::set('a', $a);
$b = Table::get('a');
$b[] = 'y';
var_dump(array_key_last($b));

$cases = [
    [5 => 'x'],
    [],
    [1, 2, 3],
    ['a' => 1, 10 => 2, 'b' => 3],
    [100 => 'a', 3 => 'b'],
    [-5 => 'neg'],
    ['k' => 'only strings'],
    [PHP_INT_MAX - 1 => 'near max'],
];
foreach ($cases as $i => $orig) {
    Table::set("c$i", $orig);
    $got = Table::get("c$i");
    $orig[] = 'appended';
    $got[] = 'appended';
    echo $i, ': ', var_export(array_key_last($orig), true), ' ', array_key_last($got) === array_key_last($orig) ? 'same' : 'got ' . var_export(array_key_last($got), true), "\n";
}
?>
--EXPECT--
int(6)
0: 6 same
1: 0 same
2: 3 same
3: 11 same
4: 101 same
5: -4 same
6: 0 same
7: 9223372036854775807 same
