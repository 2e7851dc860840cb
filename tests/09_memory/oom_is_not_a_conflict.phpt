--TEST--
Shm\Table: memory: out of memory is never reported as a conflict: add(), cas() and increment() throw, set() returns false, all counted in oom
--INI--
table.memory=2M
table.eviction_policy=noeviction
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

Table::set('c', 'small');
$n = 0;
while ($n < 100000 && Table::set("fill$n", str_repeat('f', 300) . $n)) {
    $n++;
}
for ($i = 0; $i < 1000 && Table::set("tiny$i", $i); $i++) {
}
$oom = Table::stats()['oom'];

// cas(): the value is still === $expected, so false would send a retry loop spinning forever.
try {
    Table::cas('c', 'small', str_repeat('B', 100000));
    echo "cas: no exception\n";
} catch (Shm\TableException $e) {
    echo $e->getMessage(), "\n";
}
var_dump(Table::get('c'));
// increment() of a new key returns an int or throws: false is not in its contract.
try {
    var_dump(Table::increment('brand-new-counter'));
} catch (Shm\TableException $e) {
    echo $e->getMessage(), "\n";
}
try {
    var_dump(Table::decrement('another-new-counter', 3));
} catch (Shm\TableException $e) {
    echo $e->getMessage(), "\n";
}
// add(): false means "a live entry exists" (a lock held by someone else); no room is not that.
try {
    var_dump(Table::add('lock:new', str_repeat('L', 100000)));
} catch (Shm\TableException $e) {
    echo $e->getMessage(), "\n";
}
var_dump(Table::exists('lock:new'));
var_dump(Table::add('c', 'taken'));   // a real conflict is still false
var_dump(Table::exists('brand-new-counter'));
// set() keeps its documented false.
var_dump(Table::set('new', str_repeat('n', 100000)));
var_dump(Table::stats()['oom'] - $oom);
// A real conflict is still false.
var_dump(Table::cas('c', 'other', 'x'));
?>
--EXPECT--
Shm\Table::cas(): out of memory: the table has no room for this value (raise table.memory, or set table.eviction_policy=gdsf)
string(5) "small"
Shm\Table::increment(): out of memory: the table has no room for this value (raise table.memory, or set table.eviction_policy=gdsf)
Shm\Table::decrement(): out of memory: the table has no room for this value (raise table.memory, or set table.eviction_policy=gdsf)
Shm\Table::add(): out of memory: the table has no room for this value (raise table.memory, or set table.eviction_policy=gdsf)
bool(false)
bool(false)
bool(false)
bool(false)
int(5)
bool(false)
