--TEST--
Shm\Table: errors: a value larger than the segment throws TableException and changes nothing
--INI--
table.memory=2M
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

Table::set('k', 'old');
$huge = str_repeat('x', 4 * 1024 * 1024);
$calls = [
    fn() => Table::set('k', $huge),
    fn() => Table::set('new', $huge),
    fn() => Table::add('new', $huge),
    fn() => Table::set('new', [$huge]),
    fn() => Table::setMany(['new' => $huge]),
];
foreach ($calls as $call) {
    try {
        var_dump($call());
    } catch (Shm\TableException $e) {
        echo get_class($e), ': ', $e->getMessage(), "\n";
    }
}
var_dump(Table::get('k'), Table::exists('new'), Table::count());
// the table still takes normal values
var_dump(Table::set('small', str_repeat('y', 1000)), strlen(Table::get('small')));
var_dump(Table::stats()['evictions']);
?>
--EXPECTF--
Shm\TableException: Shm\Table::set(): value of %d bytes does not fit in the table (at most %d bytes; raise table.memory)
Shm\TableException: Shm\Table::set(): value of %d bytes does not fit in the table (at most %d bytes; raise table.memory)
Shm\TableException: Shm\Table::add(): value of %d bytes does not fit in the table (at most %d bytes; raise table.memory)
Shm\TableException: Shm\Table::set(): value of %d bytes does not fit in the table (at most %d bytes; raise table.memory)
Shm\TableException: Shm\Table::setMany(): value of %d bytes does not fit in the table (at most %d bytes; raise table.memory)
string(3) "old"
bool(false)
int(1)
bool(true)
int(1000)
int(0)
