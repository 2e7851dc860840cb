--TEST--
Shm\Table: ini: an unknown table.eviction_policy makes the table unavailable with a message naming the setting
--INI--
table.eviction_policy=foo
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

foreach ([fn() => Table::set('k', 1), fn() => Table::get('k'), fn() => Table::stats(), fn() => Table::count()] as $call) {
    try {
        var_dump($call());
    } catch (Shm\TableException $e) {
        $m = $e->getMessage();
        echo $m, "\n";
        var_dump(str_contains($m, 'table.eviction_policy'), str_contains($m, 'noeviction'), str_contains($m, 'lru'), str_contains($m, 'random'));
    }
}
?>
--EXPECTF--
Shm\Table is unavailable: %Stable.eviction_policy%S
bool(true)
bool(true)
bool(true)
bool(true)
Shm\Table is unavailable: %Stable.eviction_policy%S
bool(true)
bool(true)
bool(true)
bool(true)
Shm\Table is unavailable: %Stable.eviction_policy%S
bool(true)
bool(true)
bool(true)
bool(true)
Shm\Table is unavailable: %Stable.eviction_policy%S
bool(true)
bool(true)
bool(true)
bool(true)
