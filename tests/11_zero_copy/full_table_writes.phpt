--TEST--
Shm\Table: zero-copy: a request that read arrays can still write into a full table: sets succeed, cas loops end, add() locks are taken
--INI--
table.zero_copy=1
table.zero_copy_budget=1M
table.memory=2M
table.eviction_policy=lru
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

// The blob keeps each image within twice the compact encoding, so that arrays written into the full table
// are still images (compact_when_memory_short.phpt covers the others).
function rec(int $i): array
{
    return ['id' => $i, 'name' => "record $i", 'tags' => ['a', 'b', 'c'], 'blob' => str_repeat('x', 800)];
}
// Fill the table to the brim with arrays.
for ($i = 0; $i < 20000; $i++) {
    Table::set("r$i", rec($i));
}
echo "full: ", Table::stats()['evictions'] > 0 ? 'yes' : 'no', "\n";

// This request reads 500 arrays zero-copy and keeps them all...
for ($i = 19500; $i < 20000; $i++) {
    Table::set("r$i", rec($i));
}
$zc = Table::stats()['zero_copy_reads'];
$kept = [];
for ($i = 19500; $i < 20000; $i++) {
    if (($v = Table::get("r$i")) !== null) {   // an entry evicted meanwhile is simply a miss
        $kept[$i] = $v;
    }
}
$s = Table::stats();
echo "zero-copy reads: ", $s['zero_copy_reads'] - $zc === count($kept) && count($kept) > 400 ? 'all' : 'NOT ALL', ", held: ",
    $s['held_entries'] === count($kept) ? 'all' : 'NOT ALL', "\n";

// ... then writes into the full table: 3000 sets, overwriting its own held keys too.
$failed = 0;
for ($i = 0; $i < 3000; $i++) {
    $failed += (int) !Table::set('w' . ($i % 1000), rec($i));
    if ($i % 10 === 0) {
        $failed += (int) !Table::set('r' . (19500 + $i % 500), rec(-$i));
    }
}
echo "failed sets: $failed\n";

// A cas() retry loop ends.
Table::set('counter', ['n' => 0]);
$tries = 0;
do {
    $cur = Table::get('counter');
    $tries++;
} while (!Table::cas('counter', $cur, ['n' => $cur['n'] + 1]) && $tries < 1000);
echo "cas after $tries tries: ", Table::get('counter')['n'], "\n";

// An add()-based lock is taken.
var_dump(Table::add('lock', getmypid(), 10));

// The arrays handed out before all that are intact.
$bad = 0;
foreach ($kept as $i => $v) {
    $bad += (int) ($v !== rec($i));
}
echo "intact: ", $bad === 0 ? 'yes' : "$bad differ", "\n";
?>
--EXPECT--
full: yes
zero-copy reads: all, held: all
failed sets: 0
cas after 1 tries: 1
bool(true)
intact: yes
