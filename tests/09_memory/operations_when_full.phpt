--TEST--
Shm\Table: memory: in a full noeviction table, in-place updates still work, failed sets report false and add() says it had no room
--INI--
table.memory=2M
table.eviction_policy=noeviction
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

Table::set('counter', 10);
Table::set('touched', 'v', 1000);
$n = 0;
while ($n < 100000 && Table::set("fill$n", str_repeat('f', 500) . $n)) {
    $n++;
}
// fill the last gaps with small values
for ($i = 0; $i < 1000 && Table::set("small$i", $i); $i++) {
}
$oom = Table::stats()['oom'];
// existing entries can still be changed in place
var_dump(Table::increment('counter', 5), Table::decrement('counter'));
var_dump(Table::touch('touched', 50), Table::ttl('touched') <= 50);
var_dump(Table::touch('touched', null), Table::ttl('touched'));
// new entries are refused: set() with false; add(), whose false would mean "someone has it", throws
var_dump(Table::set('new', str_repeat('n', 5000)));
try {
    Table::add('new', str_repeat('n', 5000));
} catch (Shm\TableException $e) {
    echo get_class($e), "\n";
}
var_dump(Table::setMany(['new1' => str_repeat('n', 5000), 'new2' => str_repeat('n', 5000)]));
var_dump(Table::remember('remembered', fn() => str_repeat('r', 5000)) === str_repeat('r', 5000), Table::exists('remembered'));
var_dump(Table::stats()['oom'] > $oom);
// and nothing that was there is lost
$bad = 0;
for ($i = 0; $i < $n; $i++) {
    $bad += Table::get("fill$i") !== str_repeat('f', 500) . $i;
}
var_dump($bad, Table::get('counter'), Table::get('touched'));
?>
--EXPECT--
int(15)
int(14)
bool(true)
bool(true)
bool(true)
bool(false)
bool(false)
Shm\TableException
bool(false)
bool(true)
bool(false)
bool(true)
int(0)
int(14)
string(1) "v"
