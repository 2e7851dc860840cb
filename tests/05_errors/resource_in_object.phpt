--TEST--
Shm\Table: errors: a resource inside an object is refused too, and the old value stays
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

$o = new stdClass;
$o->fp = fopen('php://memory', 'r');
Table::set('k', 'old');
foreach ([$o, ['wrapped' => $o]] as $v) {
    try {
        var_dump(Table::set('k', $v));
    } catch (TypeError $e) {
        echo $e->getMessage(), "\n";
    }
}
var_dump(Table::get('k'));
?>
--EXPECT--
Shm\Table::set(): Argument #2 ($value) cannot contain a resource
Shm\Table::set(): Argument #2 ($value) cannot contain a resource
string(3) "old"
