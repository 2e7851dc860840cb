--TEST--
Shm\Table: reliability: with gdsf eviction, churning one namespace far past capacity keeps writing and drains another one gradually, never at once
--INI--
table.memory=2M
table.eviction_policy=gdsf
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;
require __DIR__ . '/../helpers.inc';
require __DIR__ . '/reliability.inc';

// A and B entries have the same size and are never read, so a write into a full table evicts the lowest
// ranked: A, older, drains first, a little per batch of writes. A wholesale wipe would empty it within one
// batch.
for ($i = 0; $i < 200; $i++) {
    Table::set("a$i", table_checked_value(1, $i, 1500), null, 'A');
}
$capacity = intdiv(Table::stats()['memory_size'], 2048);
$failed = 0;
$written = 0;
$counts = [Table::count('A')];
while ($written < 3 * $capacity) {
    for ($j = 0; $j < 25; $j++, $written++) {
        $failed += !Table::set("b$written", table_checked_value(2, $written, 1500), null, 'B');
    }
    $counts[] = Table::count('A');
}
$drops = [];
for ($i = 1; $i < count($counts); $i++) {
    $drops[] = $counts[$i - 1] - $counts[$i];
}
$bad = 0;
foreach (Table::keys(null, 'A') as $k) {
    $bad += !table_checked_ok(Table::get($k, 'A'), 1, (int) substr($k, 1));
}
$newest = 0;
for ($i = $written - 25; $i < $written; $i++) {
    $newest += table_checked_ok(Table::get("b$i", 'B'), 2, $i);
}
$s = Table::stats();
var_dump($failed, $s['oom'], $s['evictions'] > $capacity);
// gdsf makes room for twice what a write needs (the rest stays free for the next write): 25 writes of one
// entry each evict at most 50 entries in all, about 25
echo 'largest loss of A in one batch of 25 writes: ', max($drops) <= 50 ? 'at most 50' : max($drops), "\n";
echo 'A drained gradually: ', var_export(count(array_filter($drops, fn($d) => $d > 0)) >= 5, true), "\n";
var_dump($bad, $newest >= 20);
echo rel_consistency(), "\n";
?>
--EXPECT--
int(0)
int(0)
bool(true)
largest loss of A in one batch of 25 writes: at most 50
A drained gradually: true
int(0)
bool(true)
consistent
