--TEST--
Shm\Table: types: ints round-trip exactly, PHP_INT_MAX and PHP_INT_MIN included
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

$values = [0, -1, 1, 255, 256, 65535, 65536, 2147483647, 2147483648, -2147483648, -2147483649,
    4294967295, 4294967296, PHP_INT_MAX, PHP_INT_MIN, PHP_INT_MAX - 1, PHP_INT_MIN + 1];
foreach ($values as $i => $v) {
    Table::set("i$i", $v);
}
foreach ($values as $i => $v) {
    $got = Table::get("i$i");
    echo var_export($got, true), ' ', $got === $v ? 'ok' : 'MISMATCH', "\n";
}
?>
--EXPECT--
0 ok
-1 ok
1 ok
255 ok
256 ok
65535 ok
65536 ok
2147483647 ok
2147483648 ok
-2147483648 ok
-2147483649 ok
4294967295 ok
4294967296 ok
9223372036854775807 ok
-9223372036854775807-1 ok
9223372036854775806 ok
-9223372036854775807 ok
