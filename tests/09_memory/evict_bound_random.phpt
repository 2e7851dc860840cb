--TEST--
Shm\Table: memory: with random, making room for a write of S bytes evicts at most 2*S bytes plus one entry, for every mix of sizes
--INI--
table.memory=2M
table.eviction_policy=random
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/evict_bound.inc';
evict_all_scenarios();
?>
--EXPECT--
bool(true)
uniform 1000 B: ok
1000 B, one 20 KiB write in 200: ok
100 B, one 100 KiB write in 2000: ok
1000 B, then 1020 B: ok
log-normal 100 B .. 100 KiB: ok
bool(true)
bool(true)
int(0)
