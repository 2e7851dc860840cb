--TEST--
Shm\Table: memory: the documented maximum value size fits in an empty table, one byte more does not
--INI--
table.memory=2M
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

try {
    Table::set('k', str_repeat('x', 4 << 20));
} catch (Shm\TableException $e) {
    preg_match('/at most (\d+) bytes/', $e->getMessage(), $m);
}
$max = (int) $m[1];
var_dump($max > 1000000, $max < 2 * 1024 * 1024);
try {
    var_dump(Table::set('k', str_repeat('y', $max + 1)));
} catch (Shm\TableException $e) {
    echo preg_replace('/\d+/', 'N', $e->getMessage()), "\n";
}
var_dump(Table::set('k', str_repeat('z', $max)));
var_dump(strlen(Table::get('k')) === $max);
?>
--EXPECT--
bool(true)
bool(true)
Shm\Table::set(): value of N bytes does not fit in the table (at most N bytes; raise table.memory)
bool(true)
bool(true)
