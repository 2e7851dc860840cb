--TEST--
Shm\Table: fullscan: $match filters keys of every namespace with a glob
--INI--
table.memory=2M
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

foreach (['user:1', 'user:2', 'post:1', 'user:10'] as $k) {
    Table::set($k, 1);
    Table::set($k, 1, null, 'x');
}
Table::set('user:3', 1, null, 'y');

function scan(mixed $match, int $count = 0): string {
    $r = [];
    foreach (Table::fullscan($match, $count) as $ns => $key) {
        $r[] = ($ns ?? '-') . ':' . $key;
    }
    sort($r);
    return implode(' ', $r);
}
echo scan('user:?'), "\n";
echo scan('user:*'), "\n";
echo scan('post*'), "\n";
echo scan('*:1'), "\n";
echo scan('user:[!1]'), "\n";
echo scan('nothing*'), "|\n";
echo scan(null), "\n";
// named arguments
$r = [];
foreach (Table::fullscan(match: 'post:?', count: 1) as $ns => $key) {
    $r[] = ($ns ?? '-') . ':' . $key;
}
sort($r);
echo implode(' ', $r), "\n";
?>
--EXPECT--
-:user:1 -:user:2 x:user:1 x:user:2 y:user:3
-:user:1 -:user:10 -:user:2 x:user:1 x:user:10 x:user:2 y:user:3
-:post:1 x:post:1
-:post:1 -:user:1 x:post:1 x:user:1
-:user:2 x:user:2 y:user:3
|
-:post:1 -:user:1 -:user:10 -:user:2 x:post:1 x:user:1 x:user:10 x:user:2 y:user:3
-:post:1 x:post:1
