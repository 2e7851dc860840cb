--TEST--
Shm\Table: memory: with noeviction the memory of expired entries is reused for new ones
--INI--
table.memory=2M
table.eviction_policy=noeviction
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

// Fill the table with entries that get a long TTL first and are then all touched down to one second, so
// that none expires while the table is still being filled, however slow this machine is: the table is
// full, and $live is exactly what it held.
$n = 0;
while ($n < 100000 && Table::set("old$n", str_repeat('o', 1000), 1000)) {
    $n++;
}
$touched = 0;
for ($i = 0; $i < $n; $i++) {
    $touched += Table::touch("old$i", 1);
}
$live = Table::count();
sleep(2);   // every old* entry is now expired
$failed = 0;
for ($i = 0; $i < $live; $i++) {
    $failed += !Table::set("new$i", str_repeat('n', 1000));
}
var_dump($live > 500 && $live === $n && $touched === $n, $failed, Table::count() === $live, Table::keys('old*'));
var_dump(Table::stats()['expirations'] > 0);
?>
--EXPECT--
bool(true)
int(0)
bool(true)
array(0) {
}
bool(true)
