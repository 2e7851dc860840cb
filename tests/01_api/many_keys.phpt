--TEST--
Shm\Table: scale: 200,000 keys are all stored, counted, listed and readable
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; table_skip_if_valgrind('a scale test, minutes long'); ?>
--FILE--
<?php
use Shm\Table;

$failed = 0;
for ($i = 0; $i < 200000; $i++) {
    $failed += !Table::set("key:$i", $i);
}
$bad = 0;
for ($i = 0; $i < 200000; $i++) {
    $bad += Table::get("key:$i") !== $i;
}
$keys = Table::keys('key:*');
var_dump($failed, $bad, Table::count(), count($keys), count(array_unique($keys)));
var_dump(iterator_count(Table::fullscan('key:1*')), count(Table::keys('key:1*')));
var_dump(Table::clearAll(), Table::count());
?>
--EXPECT--
int(0)
int(0)
int(200000)
int(200000)
int(200000)
int(111111)
int(111111)
int(200000)
int(0)
