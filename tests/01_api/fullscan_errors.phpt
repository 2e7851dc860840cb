--TEST--
Shm\Table: fullscan: a negative $count is a ValueError, a non-string $match a TypeError
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

Table::set('a', 1);
foreach ([[null, -1], [null, PHP_INT_MIN], [42, 0], [['*'], 0]] as [$match, $count]) {
    try {
        foreach (Table::fullscan($match, $count) as $ns => $key) {
            echo "yielded $key\n";
        }
        echo "no error\n";
    } catch (Throwable $e) {
        echo get_class($e), ': ', $e->getMessage(), "\n";
    }
}
?>
--EXPECTF--
ValueError: Shm\Table::fullscan(): Argument #2 ($count) must be greater than or equal to 0
ValueError: Shm\Table::fullscan(): Argument #2 ($count) must be greater than or equal to 0
TypeError: Shm\Table::fullscan(): Argument #1 ($match) must be of type %s, int given
TypeError: Shm\Table::fullscan(): Argument #1 ($match) must be of type %s, array given
