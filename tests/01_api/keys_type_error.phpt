--TEST--
Shm\Table: keys: a pattern that is neither a string nor null is a TypeError
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

Table::set('1', 1);
foreach ([1, 1.5, true, ['*'], new stdClass] as $p) {
    try {
        var_dump(Table::keys($p));
    } catch (TypeError $e) {
        echo get_class($e), ': ', $e->getMessage(), "\n";
    }
}
?>
--EXPECTF--
TypeError: Shm\Table::keys(): Argument #1 ($pattern) must be of type %s, int given
TypeError: Shm\Table::keys(): Argument #1 ($pattern) must be of type %s, float given
TypeError: Shm\Table::keys(): Argument #1 ($pattern) must be of type %s, bool given
TypeError: Shm\Table::keys(): Argument #1 ($pattern) must be of type %s, array given
TypeError: Shm\Table::keys(): Argument #1 ($pattern) must be of type %s, stdClass given
