--TEST--
Shm\Table: memory: with noeviction a refused overwrite leaves the old value, and every other entry, intact
--INI--
table.memory=2M
table.eviction_policy=noeviction
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

$n = 0;
while ($n < 100000 && Table::set("k$n", str_repeat('v', 2000) . $n)) {
    $n++;
}
var_dump(Table::set('k0', str_repeat('B', 500000)));
var_dump(Table::get('k0') === str_repeat('v', 2000) . '0');
var_dump(Table::setMany(['k1' => str_repeat('B', 500000)]), Table::get('k1') === str_repeat('v', 2000) . '1');
try {   // out of memory is not a conflict: cas() throws rather than return false
    Table::cas('k2', str_repeat('v', 2000) . '2', str_repeat('B', 500000));
} catch (Shm\TableException $e) {
    echo get_class($e), "\n";
}
var_dump(Table::get('k2') === str_repeat('v', 2000) . '2');
$bad = 0;
for ($i = 0; $i < $n; $i++) {
    $bad += Table::get("k$i") !== str_repeat('v', 2000) . $i;
}
var_dump($bad, Table::count() === $n);
?>
--EXPECT--
bool(false)
bool(true)
bool(false)
bool(true)
Shm\TableException
bool(true)
int(0)
bool(true)
