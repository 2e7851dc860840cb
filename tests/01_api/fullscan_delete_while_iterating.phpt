--TEST--
Shm\Table: fullscan: deleting the yielded keys while iterating is safe and reaches every key
--INI--
table.memory=2M
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

for ($i = 0; $i < 500; $i++) {
    Table::set("k$i", str_repeat('v', $i));
}
$n = 0;
foreach (Table::fullscan(null, 10) as $ns => $key) {
    if (Table::delete($key, $ns)) {
        $n++;
    }
}
var_dump($n, Table::count());
?>
--EXPECT--
int(500)
int(0)
