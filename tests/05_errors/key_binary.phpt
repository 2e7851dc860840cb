--TEST--
Shm\Table: errors: keys with NUL bytes are distinct keys, not truncated
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

$keys = ["a", "a\0", "a\0b", "a\0c", "\0", "\0\0", "\0a"];
foreach ($keys as $i => $k) {
    Table::set($k, $i);
}
var_dump(Table::count());
foreach ($keys as $i => $k) {
    echo bin2hex($k), ' => ', var_export(Table::get($k), true), "\n";
}
var_dump(Table::get("a\0d"), Table::exists("\0\0\0"));
var_dump(Table::delete("a\0"), Table::get('a'), Table::get("a\0b"), Table::count());
var_dump(Table::increment("c\0x"), Table::increment("c\0y"), Table::increment("c\0x"));
?>
--EXPECT--
int(7)
61 => 0
6100 => 1
610062 => 2
610063 => 3
00 => 4
0000 => 5
0061 => 6
NULL
bool(false)
bool(true)
int(0)
int(2)
int(6)
int(1)
int(1)
int(2)
