--TEST--
Shm\Table: errors: getMany/setMany/deleteMany reject empty or too long keys and change nothing
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

Table::setMany(['a' => 'old a', 'b' => 'old b']);
$long = str_repeat('x', 65536);
$calls = [
    fn() => Table::getMany(['a', '']),
    fn() => Table::getMany([$long, 'a']),
    fn() => Table::setMany(['a' => 'new a', '' => 'empty']),
    fn() => Table::setMany(['a' => 'new a', 'c' => 'new c', $long => 'long']),
    fn() => Table::deleteMany(['a', '', 'b']),
    fn() => Table::deleteMany(['a', 'b', $long]),
];
foreach ($calls as $call) {
    try {
        var_dump($call());
    } catch (ValueError $e) {
        echo $e->getMessage(), "\n";
    }
}
var_dump(Table::getMany(['a', 'b', 'c']));
?>
--EXPECT--
Shm\Table::getMany(): Argument #1 ($keys) must contain only non-empty keys of at most 65535 bytes
Shm\Table::getMany(): Argument #1 ($keys) must contain only non-empty keys of at most 65535 bytes
Shm\Table::setMany(): Argument #1 ($values) must contain only non-empty keys of at most 65535 bytes
Shm\Table::setMany(): Argument #1 ($values) must contain only non-empty keys of at most 65535 bytes
Shm\Table::deleteMany(): Argument #1 ($keys) must contain only non-empty keys of at most 65535 bytes
Shm\Table::deleteMany(): Argument #1 ($keys) must contain only non-empty keys of at most 65535 bytes
array(2) {
  ["a"]=>
  string(5) "old a"
  ["b"]=>
  string(5) "old b"
}
