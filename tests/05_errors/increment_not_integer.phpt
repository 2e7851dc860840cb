--TEST--
Shm\Table: errors: increment/decrement of a non-integer value throw TableException and leave it unchanged
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

$values = ['string' => '5', 'empty' => '', 'array' => [1], 'float' => 1.5, 'whole float' => 2.0, 'null' => null,
    'true' => true, 'false' => false, 'object' => new ArrayObject([])];
foreach ($values as $k => $v) {
    Table::set($k, $v);
}
foreach ($values as $k => $v) {
    try {
        var_dump(Table::increment($k));
    } catch (Shm\TableException $e) {
        echo $e->getMessage(), "\n";
    }
}
try {
    Table::decrement('string', 1);
} catch (Shm\TableException $e) {
    echo $e->getMessage(), "\n";
}
Table::set("bin\0key", 'x', null, 'ns');
try {
    Table::increment("bin\0key", 1, null, 'ns');
} catch (Shm\TableException $e) {
    echo get_class($e), "\n";
}
$same = 0;
foreach ($values as $k => $v) {
    $same += Table::get($k) == $v && gettype(Table::get($k)) === gettype($v);
}
var_dump($same, Table::get("bin\0key", 'ns'));
?>
--EXPECT--
Shm\Table::increment(): the value of key "string" is not an integer
Shm\Table::increment(): the value of key "empty" is not an integer
Shm\Table::increment(): the value of key "array" is not an integer
Shm\Table::increment(): the value of key "float" is not an integer
Shm\Table::increment(): the value of key "whole float" is not an integer
Shm\Table::increment(): the value of key "null" is not an integer
Shm\Table::increment(): the value of key "true" is not an integer
Shm\Table::increment(): the value of key "false" is not an integer
Shm\Table::increment(): the value of key "object" is not an integer
Shm\Table::decrement(): the value of key "string" is not an integer
Shm\TableException
int(9)
string(1) "x"
