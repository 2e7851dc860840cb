--TEST--
Shm\Table: types: strings are binary safe (empty, NUL bytes, every byte value, look-alikes)
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

$all = '';
for ($i = 0; $i < 256; $i++) {
    $all .= chr($i);
}
$values = ['', "\0", "a\0b\0", "\0\0\0\0\0\0\0\0", $all, str_repeat($all, 10), '123', '1.5', '-0', '0',
    'N;', 'b:0;', 'i:5;', 'a:1:{i:0;i:1;}', 'O:8:"stdClass":0:{}', "\xff\xfe\xfd", "héllo wörld ✓", ' ', "\n"];
foreach ($values as $i => $v) {
    Table::set("s$i", $v);
}
$ok = 0;
foreach ($values as $i => $v) {
    $got = Table::get("s$i");
    if ($got === $v) {
        $ok++;
    } else {
        echo "s$i: ", var_export($got, true), "\n";
    }
}
echo "$ok of ", count($values), " identical\n";
// the empty string is a hit, not a miss
var_dump(Table::get('s0'), Table::exists('s0'));
?>
--EXPECT--
19 of 19 identical
string(0) ""
bool(true)
