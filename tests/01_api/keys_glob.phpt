--TEST--
Shm\Table: keys: glob patterns * ? [a-z] [!a-z] and \x
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

foreach (['apple', 'apricot', 'banana', 'a1', 'a2', 'ab', 'a*', 'a?', '[x]', 'Apple', 'a\\b', 'a-b'] as $k) {
    Table::set($k, true);
}
// the same names in another namespace must not show up
Table::set('apple', 1, null, 'other');
Table::set('avocado', 1, null, 'other');

$patterns = ['*', 'a*', 'a?', 'a[0-9]', 'a[!0-9]', 'a[a-c]', '[ab]*', 'a\\*', 'a\\?', '\\[x\\]',
    'a\\\\b', 'A*', '*an*', 'ap*t', 'apple', 'app', '???', 'zzz*', '\\a\\p\\p\\l\\e'];
foreach ($patterns as $p) {
    $r = Table::keys($p);
    sort($r, SORT_STRING);
    echo str_pad($p, 14), '=> [', implode(' ', $r), "]\n";
}
?>
--EXPECT--
*             => [Apple [x] a* a-b a1 a2 a? a\b ab apple apricot banana]
a*            => [a* a-b a1 a2 a? a\b ab apple apricot]
a?            => [a* a1 a2 a? ab]
a[0-9]        => [a1 a2]
a[!0-9]       => [a* a? ab]
a[a-c]        => [ab]
[ab]*         => [a* a-b a1 a2 a? a\b ab apple apricot banana]
a\*           => [a*]
a\?           => [a?]
\[x\]         => [[x]]
a\\b          => [a\b]
A*            => [Apple]
*an*          => [banana]
ap*t          => [apricot]
apple         => [apple]
app           => []
???           => [[x] a-b a\b]
zzz*          => []
\a\p\p\l\e    => [apple]
