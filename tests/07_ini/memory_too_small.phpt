--TEST--
Shm\Table: ini: table.memory below 1M makes the table unavailable with a message naming the setting
--INI--
table.memory=100K
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

foreach ([fn() => Table::set('k', 1), fn() => Table::stats()] as $call) {
    try {
        var_dump($call());
    } catch (Shm\TableException $e) {
        $m = $e->getMessage();
        echo get_class($e), ': ', $m, "\n";
        var_dump(str_contains($m, 'table.memory'));
    }
}
?>
--EXPECTF--
Shm\TableException: Shm\Table is unavailable: %Stable.memory%S
bool(true)
Shm\TableException: Shm\Table is unavailable: %Stable.memory%S
bool(true)
