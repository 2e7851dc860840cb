--TEST--
Shm\Table: types: empty arrays and arrays nested 100 and 512 levels deep
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;
require __DIR__ . '/../helpers.inc';

Table::set('e', []);
var_dump(Table::get('e'), Table::get('e') === []);
Table::set('ee', [[], ['k' => []], [[[]]]]);
var_dump(Table::get('ee') === [[], ['k' => []], [[[]]]]);

foreach ([100, 512] as $depth) {
    $deep = table_nested($depth, 'bottom');
    var_dump(Table::set("d$depth", $deep));
    $got = Table::get("d$depth");
    echo $depth, ': depth ', table_depth($got), ', ', $got === $deep ? 'identical' : 'DIFFERENT', "\n";
}
// a wide and deep mix
$tree = ['leaf' => 1];
for ($i = 0; $i < 50; $i++) {
    $tree = ['l' => $tree, 'r' => $tree === [] ? [] : ['n' => $i], 's' => "level $i"];
}
Table::set('tree', $tree);
var_dump(Table::get('tree') === $tree);
?>
--EXPECT--
array(0) {
}
bool(true)
bool(true)
bool(true)
100: depth 100, identical
bool(true)
512: depth 512, identical
bool(true)
