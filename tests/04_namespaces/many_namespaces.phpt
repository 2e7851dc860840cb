--TEST--
Shm\Table: namespaces: a thousand namespaces stay independent
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

for ($n = 0; $n < 1000; $n++) {
    Table::set('k', $n, null, "ns$n");
    Table::set("only$n", true, null, "ns$n");
}
$bad = 0;
for ($n = 0; $n < 1000; $n++) {
    if (Table::get('k', "ns$n") !== $n || Table::count("ns$n") !== 2 || Table::keys('only*', "ns$n") !== ["only$n"]) {
        $bad++;
    }
}
var_dump($bad, count(Table::namespaces()), count(Table::stats()['namespaces']));
var_dump(Table::clearAll());
?>
--EXPECT--
int(0)
int(1000)
int(1001)
int(2000)
