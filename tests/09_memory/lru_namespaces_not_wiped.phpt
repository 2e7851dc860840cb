--TEST--
Shm\Table: memory: eviction under pressure never wipes unrelated entries wholesale
--INI--
table.memory=2M
table.eviction_policy=lru
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

// a small, regularly used working set
for ($i = 0; $i < 20; $i++) {
    Table::set("cfg$i", "config $i", null, 'config');
}
$lost = 0;
for ($round = 0; $round < 30; $round++) {
    for ($j = 0; $j < 100; $j++) {
        Table::set("bulk$round.$j", str_repeat('b', 2000));
    }
    usleep(110000);
    for ($i = 0; $i < 20; $i++) {
        $lost += Table::get("cfg$i", 'config') !== "config $i";
    }
}
var_dump($lost, Table::count('config'), Table::stats()['evictions'] > 0, Table::count() < 3000);
?>
--EXPECT--
int(0)
int(20)
bool(true)
bool(true)
