--TEST--
Shm\Table: ini: an unknown table.serializer makes the table unavailable with a message naming the setting
--INI--
table.serializer=bogus
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

foreach ([fn() => Table::set('k', 1), fn() => Table::get('k')] as $call) {
    try {
        var_dump($call());
    } catch (Shm\TableException $e) {
        $m = $e->getMessage();
        echo $m, "\n";
        var_dump(str_contains($m, 'table.serializer'), str_contains($m, 'php'));
    }
}
?>
--EXPECTF--
Shm\Table is unavailable: %Stable.serializer%S
bool(true)
bool(true)
Shm\Table is unavailable: %Stable.serializer%S
bool(true)
bool(true)
