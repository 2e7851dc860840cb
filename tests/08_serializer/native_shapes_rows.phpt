--TEST--
Shm\Table: native arrays: rows of one shape come back equal and independent; shape changes, nested rows, int keys, next free element
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

$fails = 0;
$check = function (string $what, $got, $want) use (&$fails) {
    if ($got !== $want) {
        $fails++;
        echo "FAIL $what\n";
        var_dump($got, $want);
    }
};

// Rows of one shape: the second get on is built from a template; every row keeps its own values.
$rows = [];
for ($i = 0; $i < 200; $i++) {
    $rows[$i] = ['id' => $i, 'name' => "row $i", 'price' => $i / 4, 'ok' => $i % 2 === 0, 'note' => null,
                 'tags' => ['a' => "t$i", 'b' => [$i, $i + 1]], 'empty' => [], 'big' => PHP_INT_MAX - $i];
    Table::set("row:$i", $rows[$i]);
}
for ($round = 0; $round < 3; $round++) {
    for ($i = 0; $i < 200; $i++) {
        $check("row $i round $round", Table::get("row:$i"), $rows[$i]);
    }
}

// A decoded row is an ordinary array: changing it changes neither the stored row nor the next one.
$a = Table::get('row:7');
$a['extra'] = 1;
$a[] = 'appended';
unset($a['name']);
$a['id'] = 'changed';
$a['tags']['a'] = 'changed';
$check('modified copy', array_keys($a), ['id', 'price', 'ok', 'note', 'tags', 'empty', 'big', 'extra', 0]);
$check('row after modifying a copy', Table::get('row:7'), $rows[7]);
$check('next row', Table::get('row:8'), $rows[8]);
$b = Table::get('row:9');
$check('lookup by key', [$b['name'], $b['price'], isset($b['missing']), array_key_exists('note', $b)], ['row 9', 2.25, false, true]);
$b[] = 'x';
$check('append to a templated row', array_key_last($b), 0);

// The same keys in another order, a subset, a superset: other shapes, each still exact.
$shapes = [
    ['name' => 'x', 'id' => 1, 'price' => 1.5, 'ok' => true, 'note' => null, 'tags' => [], 'empty' => [], 'big' => 1],
    ['id' => 1, 'name' => 'x'],
    ['id' => 1, 'name' => 'x', 'price' => 1.5, 'ok' => true, 'note' => null, 'tags' => [], 'empty' => [], 'big' => 1, 'more' => 2],
];
foreach ($shapes as $n => $v) {
    Table::set("shape:$n", $v);
}
for ($round = 0; $round < 2; $round++) {
    foreach ($shapes as $n => $v) {
        $check("shape $n", Table::get("shape:$n"), $v);
        $check("row between shapes $n", Table::get("row:$n"), $rows[$n]);
    }
}

// Integer keys, mixed keys, negative and large ones, and the next free element that comes with them.
$ints = [
    [5 => 'a', 6 => 'b', 'k' => 'c'],
    [-3 => 'neg', 'x' => 1, 1000 => 'big', 1 << 40 => 'large'],
    [3 => 'three', 1 => 'one', 2 => 'two'],   // not a list: a hash array of int keys
    ['10' => 'ten', 'a' => 'b'],              // "10" is the int key 10
];
$holes = [5 => 'a', 6 => 'b', 'k' => 'c'];
unset($holes[6]);                              // appends at 7, not 6
$ints[] = $holes;
$packed = [1, 2, 3];
unset($packed[2]);                             // a list that appends at 3
$ints[] = $packed;
foreach ($ints as $n => $v) {
    Table::set("int:$n", $v);
}
for ($round = 0; $round < 3; $round++) {
    foreach ($ints as $n => $v) {
        $got = Table::get("int:$n");
        $check("int keys $n round $round", $got, $v);
        $v[] = 'next';
        $got[] = 'next';
        $check("next free element $n round $round", $got, $v);
    }
}

// One-character and empty keys (interned by PHP itself) and keys too long for the key cache.
$odd = ['' => 'empty', 'a' => 1, str_repeat('long', 20) => 2, 'b' => [str_repeat('k', 40) => 3]];
Table::set('odd', $odd);
for ($round = 0; $round < 3; $round++) {
    $check("odd keys round $round", Table::get('odd'), $odd);
}

// Strings of every length up to 70 bytes (the decoder copies short ones word by word).
$lengths = [];
for ($len = 0; $len <= 70; $len++) {
    $lengths["s$len"] = substr(str_repeat('0123456789abcdef', 5), $len % 7, $len);
}
Table::set('lengths', $lengths);
for ($round = 0; $round < 2; $round++) {
    $check("string lengths round $round", Table::get('lengths'), $lengths);
}

echo $fails === 0 ? "ok\n" : "$fails failures\n";
?>
--EXPECT--
ok
