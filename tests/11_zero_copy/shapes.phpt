--TEST--
Shm\Table: zero-copy: arrays of every shape come back identical, handed out without a copy and copied alike
--INI--
table.zero_copy=1
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; table_skip_unless_pcntl(); ?>
--FILE--
<?php
use Shm\Table;
require __DIR__ . '/../helpers.inc';

$holes = [1, 2, 3, 4, 5];
unset($holes[1], $holes[3]);
$shrunk = [10 => 'a', 'k' => 'b'];
unset($shrunk[10]);
$deep = 'bottom';
for ($i = 0; $i < 500; $i++) {
    $deep = [$deep];
}
$big = [];
for ($i = 0; $i < 20000; $i++) {
    $big["key$i"] = $i % 3 ? "value $i" : [$i, $i * 1.5, null, true];
}
$shapes = [
    'empty' => [],
    'nested empties' => [[], [[]], ['a' => []]],
    'packed' => range(1, 100),
    'packed with holes' => $holes,
    'next free after unset' => $shrunk,
    'negative and big int keys' => [-5 => 'neg', 1 << 40 => 'big', PHP_INT_MIN => 'min'],
    'numeric-looking string keys' => ['01' => 'a', '1.5' => 'b', ' 1' => 'c', '' => 'empty'],
    'binary strings' => ["\0" => "\0\1\2", "k\xff" => "\xff\xfe", 'ü' => 'ünïcödé'],
    'scalars' => [null, true, false, 0, -1, 1.5, -0.0, INF, NAN === NAN, 'x' => 1e100],
    'one-char strings' => ['a', 'b', '', '0'],
    'deep' => $deep,
    'big' => $big,
];
foreach ($shapes as $name => $v) {
    Table::set($name, $v);
}
for ($i = 0; $i < 1024; $i++) {
    Table::set("pad$i", [$i]);
}

$copier = table_child_start(function () use ($shapes) {
    // Fills its hold list (1024 entries) first, so every read after that copies.
    foreach (range(0, 1023) as $i) {
        Table::get("pad$i");
    }
    $s = Table::stats();
    $out = [];
    foreach ($shapes as $name => $v) {
        $got = Table::get($name);
        $out[$name] = $got === $v && serialize($got) === serialize($v);
        $got[] = 'appended';   // a copy is a plain array: appending works as on the original
        $v[] = 'appended';
        $out[$name] = $out[$name] && $got === $v;
    }
    $t = Table::stats();
    return [$out, $t['zero_copy_reads'] - $s['zero_copy_reads']];
}, 0, true);

// The parent reads every shape zero-copy.
$zc = Table::stats()['zero_copy_reads'];
foreach ($shapes as $name => $v) {
    $got = Table::get($name);
    $ok = $got === $v && serialize($got) === serialize($v);
    $got[] = 'appended';
    $v[] = 'appended';
    echo str_pad($name, 28), $ok && $got === $v ? 'ok' : 'DIFFERS', "\n";
}
// 'big' (20,000 elements) is stored in the compact encoding: its image would be over twice as big.
echo "zero-copy reads: ", Table::stats()['zero_copy_reads'] - $zc, "\n";
var_dump(Table::getMany(['packed', 'missing', 'empty']) === ['packed' => range(1, 100), 'empty' => []]);   // misses are left out
var_dump(Table::getWithMeta('scalars')[0] === $shapes['scalars']);
var_dump(Table::remember('big', fn() => 'not called') === $big);
// A held array replaced by this process: the next get() returns the new one, the old one stays intact.
Table::set('mine', ['v' => 1]);
$old = Table::get('mine');
Table::set('mine', ['v' => 2]);
var_dump(Table::get('mine') === ['v' => 2], $old === ['v' => 1]);
Table::delete('mine');
var_dump(Table::get('mine'), $old === ['v' => 1]);
table_child_go($copier);
[$copied, $zc_in_copier] = table_child_wait($copier);
echo "copied: ", implode(' ', array_map(fn($ok) => $ok ? 'ok' : 'DIFFERS', $copied)), ", zero-copy reads: $zc_in_copier\n";
?>
--EXPECT--
empty                       ok
nested empties              ok
packed                      ok
packed with holes           ok
next free after unset       ok
negative and big int keys   ok
numeric-looking string keys ok
binary strings              ok
scalars                     ok
one-char strings            ok
deep                        ok
big                         ok
zero-copy reads: 11
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
NULL
bool(true)
copied: ok ok ok ok ok ok ok ok ok ok ok ok, zero-copy reads: 0
