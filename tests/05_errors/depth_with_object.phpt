--TEST--
Shm\Table: errors: arrays deeper than 512 levels that also hold objects or references are stored by the serializer; the 4096-level limit holds for them too
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;
require __DIR__ . '/../helpers.inc';

$ref = 1;
foreach (['object first' => ['o' => new stdClass, 'deep' => table_nested(600)],
          'reference first' => ['r' => &$ref, 'deep' => table_nested(600)],
          'object at the bottom' => table_nested(600, new stdClass)] as $name => $v) {
    var_dump(Table::set($name, $v));
    echo $name, ': ', Table::get($name) == $v ? 'equal' : 'DIFFERENT', "\n";
}
Table::set('k', 'old');
foreach (['object first' => ['o' => new stdClass, 'deep' => table_nested(5000)],
          'reference first' => ['r' => &$ref, 'deep' => table_nested(5000)],
          'object at the bottom' => table_nested(5000, new stdClass)] as $name => $v) {
    try {
        var_dump(Table::set('k', $v));
    } catch (ValueError $e) {
        echo $name, ': ', $e->getMessage(), "\n";
    }
}
var_dump(Table::get('k'));
?>
--EXPECT--
bool(true)
object first: equal
bool(true)
reference first: equal
bool(true)
object at the bottom: equal
object first: Shm\Table::set(): Argument #2 ($value) is nested deeper than 4096 levels
reference first: Shm\Table::set(): Argument #2 ($value) is nested deeper than 4096 levels
object at the bottom: Shm\Table::set(): Argument #2 ($value) is nested deeper than 4096 levels
string(3) "old"
