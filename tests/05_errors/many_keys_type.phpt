--TEST--
Shm\Table: errors: getMany/deleteMany throw a TypeError naming the type of a key that is not a string or int, and change nothing
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

Table::setMany(['a' => 1, '1' => 'one', '' . PHP_INT_MAX => 'max']);
foreach ([1.5, null, true, false, [], new stdClass, 1.0] as $bad) {
    foreach (['getMany', 'deleteMany'] as $method) {
        try {
            var_dump(Table::$method(['a', $bad]));
        } catch (TypeError $e) {
            echo get_class($e), ': ', $e->getMessage(), "\n";
        }
    }
}
/* Ints are keys (their decimal form); a reference to a string works like the string. */
$ref = 'a';
$list = [&$ref, 1, PHP_INT_MAX];
var_dump(Table::getMany($list));
var_dump(Table::count());
?>
--EXPECT--
TypeError: Shm\Table::getMany(): Argument #1 ($keys) must contain only keys of type string or int, float given
TypeError: Shm\Table::deleteMany(): Argument #1 ($keys) must contain only keys of type string or int, float given
TypeError: Shm\Table::getMany(): Argument #1 ($keys) must contain only keys of type string or int, null given
TypeError: Shm\Table::deleteMany(): Argument #1 ($keys) must contain only keys of type string or int, null given
TypeError: Shm\Table::getMany(): Argument #1 ($keys) must contain only keys of type string or int, bool given
TypeError: Shm\Table::deleteMany(): Argument #1 ($keys) must contain only keys of type string or int, bool given
TypeError: Shm\Table::getMany(): Argument #1 ($keys) must contain only keys of type string or int, bool given
TypeError: Shm\Table::deleteMany(): Argument #1 ($keys) must contain only keys of type string or int, bool given
TypeError: Shm\Table::getMany(): Argument #1 ($keys) must contain only keys of type string or int, array given
TypeError: Shm\Table::deleteMany(): Argument #1 ($keys) must contain only keys of type string or int, array given
TypeError: Shm\Table::getMany(): Argument #1 ($keys) must contain only keys of type string or int, stdClass given
TypeError: Shm\Table::deleteMany(): Argument #1 ($keys) must contain only keys of type string or int, stdClass given
TypeError: Shm\Table::getMany(): Argument #1 ($keys) must contain only keys of type string or int, float given
TypeError: Shm\Table::deleteMany(): Argument #1 ($keys) must contain only keys of type string or int, float given
array(3) {
  ["a"]=>
  int(1)
  [1]=>
  string(3) "one"
  [9223372036854775807]=>
  string(3) "max"
}
int(3)
