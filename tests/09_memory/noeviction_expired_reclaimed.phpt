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

$n = 0;
while ($n < 100000 && Table::set("old$n", str_repeat('o', 1000), 2)) {
    $n++;
}
// as many entries as the full table held (fewer than $n if some expired while it was being filled)
$live = Table::count();
sleep(3);
$failed = 0;
for ($i = 0; $i < $live; $i++) {
    $failed += !Table::set("new$i", str_repeat('n', 1000));
}
var_dump($live > 500, $failed, Table::count() === $live, Table::keys('old*'));
var_dump(Table::stats()['expirations'] > 0);
?>
--EXPECT--
bool(true)
int(0)
bool(true)
array(0) {
}
bool(true)
