--TEST--
Shm\Table: errors: arrays nested deeper than 512 levels are a ValueError and the old value stays
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;
require __DIR__ . '/../helpers.inc';

Table::set('k', 'old');
foreach ([514, 600, 10000] as $depth) {
    try {
        var_dump(Table::set('k', table_nested($depth)));
    } catch (ValueError $e) {
        echo $depth, ': ', $e->getMessage(), "\n";
    }
}
try {
    Table::setMany(['k' => 1, 'deep' => table_nested(600)]);
} catch (ValueError $e) {
    echo $e->getMessage(), "\n";
}
try {
    Table::add('new', ['wrapper' => table_nested(600)]);
} catch (ValueError $e) {
    echo $e->getMessage(), "\n";
}
var_dump(Table::get('k'), Table::exists('deep'), Table::exists('new'), Table::count());
?>
--EXPECT--
514: Shm\Table::set(): Argument #2 ($value) is nested deeper than 512 levels
600: Shm\Table::set(): Argument #2 ($value) is nested deeper than 512 levels
10000: Shm\Table::set(): Argument #2 ($value) is nested deeper than 512 levels
Shm\Table::setMany(): Argument #1 ($values) is nested deeper than 512 levels
Shm\Table::add(): Argument #2 ($value) is nested deeper than 512 levels
string(3) "old"
bool(false)
bool(false)
int(1)
