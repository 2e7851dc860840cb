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
// the working set is read after every round, and within a round whenever the 100 ms LRU tick moves on
// (on a loaded machine 100 writes can span several ticks); the sleeps make every round at least one tick
$lost = 0;
$tick = 0;
$readConfig = function () use (&$lost, &$tick) {
    $tick = (int) floor(microtime(true) * 10);
    for ($i = 0; $i < 20; $i++) {
        $lost += Table::get("cfg$i", 'config') !== "config $i";
    }
};
for ($round = 0; $round < 30; $round++) {
    for ($j = 0; $j < 100; $j++) {
        if ((int) floor(microtime(true) * 10) !== $tick) {
            $readConfig();
        }
        Table::set("bulk$round.$j", str_repeat('b', 2000));
    }
    usleep(110000);
    $readConfig();
}
var_dump($lost, Table::count('config'), Table::stats()['evictions'] > 0, Table::count() < 3000);
?>
--EXPECT--
int(0)
int(20)
bool(true)
bool(true)
