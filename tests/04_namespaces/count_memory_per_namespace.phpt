--TEST--
Shm\Table: namespaces: count and memory are per namespace
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

for ($i = 0; $i < 10; $i++) {
    Table::set("k$i", str_repeat('a', 1000));
}
for ($i = 0; $i < 20; $i++) {
    Table::set("k$i", str_repeat('b', 5000), null, 'big');
}
Table::set('k', 1, null, 'small');
var_dump(Table::count(), Table::count('big'), Table::count('small'), Table::count('none'));
$d = Table::memory();
$b = Table::memory('big');
$s = Table::memory('small');
var_dump($d >= 10000, $b >= 100000, $s > 0, $s < 1000, Table::memory('none'));
var_dump($b > $d, $d > $s);
// stats agrees
$st = Table::stats()['namespaces'];
var_dump($st['']['count'], $st['big']['count'], $st['small']['count']);
var_dump($st['']['memory'] === $d, $st['big']['memory'] === $b, $st['small']['memory'] === $s);
var_dump(Table::stats()['entries']);
// deleting from one namespace changes only its numbers
Table::delete('k0', 'big');
var_dump(Table::count(), Table::count('big'), Table::memory() === $d, Table::memory('big') < $b);
?>
--EXPECT--
int(10)
int(20)
int(1)
int(0)
bool(true)
bool(true)
bool(true)
bool(true)
int(0)
bool(true)
bool(true)
int(10)
int(20)
int(1)
bool(true)
bool(true)
bool(true)
int(31)
int(10)
int(19)
bool(true)
bool(true)
