--TEST--
Shm\Table: errors: the 512-level limit holds for arrays that also hold objects or references
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;
require __DIR__ . '/../helpers.inc';

Table::set('k', 'old');
$ref = 1;
foreach (['object first' => ['o' => new stdClass, 'deep' => table_nested(600)],
          'reference first' => ['r' => &$ref, 'deep' => table_nested(600)],
          'object at the bottom' => table_nested(600, new stdClass)] as $name => $v) {
    try {
        var_dump(Table::set('k', $v));
    } catch (ValueError $e) {
        echo $name, ': ', $e->getMessage(), "\n";
    }
}
var_dump(Table::get('k'));
?>
--EXPECT--
object first: Shm\Table::set(): Argument #2 ($value) is nested deeper than 512 levels
reference first: Shm\Table::set(): Argument #2 ($value) is nested deeper than 512 levels
object at the bottom: Shm\Table::set(): Argument #2 ($value) is nested deeper than 512 levels
string(3) "old"
