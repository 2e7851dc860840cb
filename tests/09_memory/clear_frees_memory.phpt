--TEST--
Shm\Table: memory: clear() and clearAll() give the memory back for new entries
--INI--
table.memory=2M
table.eviction_policy=noeviction
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

function fill(?string $ns): int {
    $n = 0;
    while ($n < 100000 && Table::set("k$n", str_repeat('x', 1500), null, $ns)) {
        $n++;
    }
    return $n;
}
$first = fill('a');
var_dump(Table::clear('a'), Table::count('a'), Table::memory('a'));
$second = fill('b');
var_dump($second >= $first * 0.9);
var_dump(Table::clearAll() === $second);
$third = fill(null);
var_dump($third >= $first * 0.9);
?>
--EXPECT--
bool(true)
int(0)
int(0)
bool(true)
bool(true)
bool(true)
