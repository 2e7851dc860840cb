--TEST--
Shm\Table: reliability: with gdsf eviction, a table full of expired entries takes new writes by reclaiming them, not by evicting live ones
--INI--
table.memory=2M
table.eviction_policy=gdsf
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; table_skip_if_no_sleep(); ?>
--FILE--
<?php
use Shm\Table;
require __DIR__ . '/../helpers.inc';
require __DIR__ . '/reliability.inc';

for ($i = 0; $i < 20; $i++) {
    Table::set("live$i", "live value $i", null, $i % 2 ? 'live' : null);
}
// Fill the rest, up to the last few KB, with entries that will expire. They get a long TTL first and are
// then all touched down to one second, so that none expires while the table is still being filled,
// however slow this machine is (valgrind).
$n = 0;
while (Table::stats()['memory_free'] > 4096 && $n < 100000) {
    Table::set("old$n", str_repeat('o', 1000), 1000, $n % 3 ? null : 'old');
    $n++;
}
$s = Table::stats();
echo $n > 1000 && $s['evictions'] === 0 && $s['expirations'] === 0 ? "full\n" : "full after $n entries, {$s['evictions']} evictions, {$s['expirations']} expirations\n";
$touched = 0;
for ($i = 0; $i < $n; $i++) {
    $touched += Table::touch("old$i", 1, $i % 3 ? null : 'old');
}
sleep(2);   // every old* entry is now expired, and invisible
var_dump($touched === $n, Table::count() + Table::count('live') + Table::count('old'), Table::keys('old*'), Table::exists('old0'));
$before = Table::stats();
$failed = 0;
for ($i = 0; $i < $n; $i++) {
    $failed += !Table::set("new$i", str_repeat('n', 1000), null, $i % 3 ? null : 'new');
}
$after = Table::stats();
$live = 0;
for ($i = 0; $i < 20; $i++) {
    $live += Table::get("live$i", $i % 2 ? 'live' : null) === "live value $i";
}
$evicted = $after['evictions'] - $before['evictions'];
var_dump($failed, $live, $after['oom'] - $before['oom']);
// the expired entries made the room: at most a handful of evictions for $n writes
echo 'evictions during the writes: ', $evicted <= max(2, intdiv($n, 100)) ? 'a handful at most' : $evicted, "\n";
var_dump($after['expirations'] >= $n - 1, Table::count('old'), Table::count() + Table::count('new') + Table::count('live') === 20 + $n - $evicted);
echo rel_consistency(), "\n";
?>
--EXPECT--
full
bool(true)
int(20)
array(0) {
}
bool(false)
int(0)
int(20)
int(0)
evictions during the writes: a handful at most
bool(true)
int(0)
bool(true)
consistent
