--TEST--
Shm\Table: memory: overwriting and deleting far more data than the table holds never runs out (memory is reclaimed)
--INI--
table.memory=2M
table.eviction_policy=noeviction
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

$failed = 0;
// 100 MB of overwrites of 10 keys of 50 KB
for ($i = 0; $i < 2000; $i++) {
    $failed += !Table::set('k' . ($i % 10), str_repeat(chr(65 + $i % 26), 50000));
}
var_dump($failed, Table::count());
// 50 MB of set + delete
for ($i = 0; $i < 5000; $i++) {
    $failed += !Table::set("tmp$i", str_repeat('t', 10000));
    Table::delete("tmp$i");
}
var_dump($failed, Table::count());
// increments on counters never fail either
for ($i = 0; $i < 20000; $i++) {
    Table::increment('c' . ($i % 100));
}
var_dump(Table::get('c0'), Table::count());
$m = Table::memory();
Table::clearAll();
var_dump($m > 0, Table::memory(), Table::stats()['oom']);
?>
--EXPECT--
int(0)
int(10)
int(0)
int(10)
int(200)
int(110)
bool(true)
int(0)
int(0)
