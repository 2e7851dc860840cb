--TEST--
Shm\Table: errors: arrays nested deeper than 512 levels go through the serializer; past 4096 they are a ValueError and the old value stays
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;
require __DIR__ . '/../helpers.inc';

/* APCu stores 600 levels; so does the table (natively up to 512, through the serializer beyond). */
foreach ([513, 514, 600, 4096] as $depth) {
    $deep = table_nested($depth, 'bottom');
    var_dump(Table::set("d$depth", $deep));
    $got = Table::get("d$depth");
    echo $depth, ': depth ', table_depth($got), ', ', $got === $deep ? 'identical' : 'DIFFERENT', "\n";
}
var_dump(Table::setMany(['m1' => 1, 'm600' => table_nested(600)]), table_depth(Table::get('m600')));
var_dump(Table::add('a600', ['wrapper' => table_nested(600)]), table_depth(Table::get('a600')['wrapper']));
var_dump(table_depth(Table::remember('r600', fn() => table_nested(600))), table_depth(Table::get('r600')));
var_dump(Table::cas('d600', table_nested(600, 'bottom'), 'replaced'), Table::get('d600'));

/* unserialize() refuses more than 4096 levels (unserialize_max_depth), so such values are refused when
 * stored, never stored unreadable. */
Table::set('k', 'old');
foreach ([4097, 10000] as $depth) {
    try {
        var_dump(Table::set('k', table_nested($depth)));
    } catch (ValueError $e) {
        echo $depth, ': ', $e->getMessage(), "\n";
    }
}
try {
    Table::setMany(['k' => 1, 'deep' => table_nested(5000)]);
} catch (ValueError $e) {
    echo $e->getMessage(), "\n";
}
try {
    Table::add('new', ['wrapper' => table_nested(5000)]);
} catch (ValueError $e) {
    echo $e->getMessage(), "\n";
}
var_dump(Table::get('k'), Table::exists('deep'), Table::exists('new'));
?>
--EXPECT--
bool(true)
513: depth 513, identical
bool(true)
514: depth 514, identical
bool(true)
600: depth 600, identical
bool(true)
4096: depth 4096, identical
bool(true)
int(600)
bool(true)
int(600)
int(600)
int(600)
bool(true)
string(8) "replaced"
4097: Shm\Table::set(): Argument #2 ($value) is nested deeper than 4096 levels
10000: Shm\Table::set(): Argument #2 ($value) is nested deeper than 4096 levels
Shm\Table::setMany(): Argument #1 ($values) is nested deeper than 4096 levels
Shm\Table::add(): Argument #2 ($value) is nested deeper than 4096 levels
string(3) "old"
bool(false)
bool(false)
