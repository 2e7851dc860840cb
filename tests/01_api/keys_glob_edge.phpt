--TEST--
Shm\Table: keys: glob edge cases (empty pattern, repeated stars, bytes not characters, escapes inside classes)
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

foreach (['a', 'ab', 'abc', 'é', '-', ']', 'a]', '*x*'] as $k) {
    Table::set($k, 1);
}
foreach (['', '**', '*?*', '***c', '??', '?', '[a]*', '[-]', '[!a]', 'a[]]', '\\*x\\*', '*x*', '[a-a][b-b]', 'a*c*', '*b'] as $p) {
    $r = Table::keys($p);
    sort($r, SORT_STRING);
    echo str_pad(var_export($p, true), 14), '=> [', implode(' ', array_map(fn($k) => preg_match('/^[\x20-\x7e]*$/', $k) ? $k : bin2hex($k), $r)), "]\n";
}
?>
--EXPECT--
''            => []
'**'          => [*x* - ] a a] ab abc c3a9]
'*?*'         => [*x* - ] a a] ab abc c3a9]
'***c'        => [abc]
'??'          => [a] ab c3a9]
'?'           => [- ] a]
'[a]*'        => [a a] ab abc]
'[-]'         => [-]
'[!a]'        => [- ]]
'a[]]'        => [a]]
'\\*x\\*'     => [*x*]
'*x*'         => [*x*]
'[a-a][b-b]'  => [ab]
'a*c*'        => [abc]
'*b'          => [ab]
