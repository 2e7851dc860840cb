--TEST--
Shm\Table: reliability: keys and namespaces with NUL and high bytes work through every method that takes or returns them
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;
require __DIR__ . '/../helpers.inc';
require __DIR__ . '/reliability.inc';

// 05_errors/key_binary.phpt covers set/get/delete/increment; this covers the rest, and namespaces
$ns = "n\0s\xff";
$keys = ["k\0a", "k\0b", "\0", "k", "\xff\xfe\0"];
var_dump(Table::setMany(array_fill_keys($keys, 'v'), null, $ns));
var_dump(Table::set("k\0a", 'default ns'), Table::set("k\0a", 'other ns', null, 'n'));
$hex = function (array $a): array {
    $a = array_map('bin2hex', $a);
    return $a;
};
$sorted = function (array $a) use ($hex): array {   // keys() makes no promise about order
    $a = $hex($a);
    sort($a);
    return $a;
};
var_dump($hex(array_keys(Table::getMany(["k\0b", "k\0x", "\0"], $ns))));
var_dump($sorted(Table::keys("k\0?", $ns)), $sorted(Table::keys("k*", $ns)), $sorted(Table::keys("\\\0", $ns)));
var_dump(Table::count($ns), Table::memory($ns) > 0, in_array($ns, Table::namespaces(), true));
var_dump(Table::stats()['namespaces'][$ns]['count']);
$seen = [];
foreach (Table::fullscan() as $n => $k) {
    $seen[] = bin2hex((string) $n) . '/' . bin2hex($k);
}
sort($seen);
var_dump($seen);
var_dump(Table::add("k\0a", 'x', null, $ns), Table::cas("k\0a", 'v', 'w', $ns), Table::get("k\0a", $ns));
var_dump(Table::touch("k\0b", 100, $ns), Table::ttl("k\0b", $ns) > 90, Table::getWithMeta("\0", $ns)[0]);
var_dump(Table::remember("r\0", fn() => 'computed', null, $ns), Table::remember("r\0", fn() => 'again', null, $ns));
var_dump(Table::increment("c\0", 5, null, $ns), Table::decrement("c\0", 2, null, $ns));
var_dump(Table::deleteMany(["k\0a", "k\0b", "k\0zz"], $ns), Table::get("k\0a"), Table::get("k\0a", 'n'));
// a namespace that differs only after a NUL byte is a different namespace
var_dump(Table::set('same', 1, null, "x\0"), Table::set('same', 2, null, "x\0y"), Table::get('same', "x\0"), Table::get('same', "x\0y"), Table::get('same'));
var_dump(Table::clear($ns), Table::count($ns), in_array($ns, Table::namespaces(), true), Table::get('same', "x\0y"));
echo rel_consistency(), "\n";
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
array(2) {
  [0]=>
  string(6) "6b0062"
  [1]=>
  string(2) "00"
}
array(2) {
  [0]=>
  string(6) "6b0061"
  [1]=>
  string(6) "6b0062"
}
array(3) {
  [0]=>
  string(2) "6b"
  [1]=>
  string(6) "6b0061"
  [2]=>
  string(6) "6b0062"
}
array(1) {
  [0]=>
  string(2) "00"
}
int(5)
bool(true)
bool(true)
int(5)
array(7) {
  [0]=>
  string(7) "/6b0061"
  [1]=>
  string(9) "6e/6b0061"
  [2]=>
  string(11) "6e0073ff/00"
  [3]=>
  string(11) "6e0073ff/6b"
  [4]=>
  string(15) "6e0073ff/6b0061"
  [5]=>
  string(15) "6e0073ff/6b0062"
  [6]=>
  string(15) "6e0073ff/fffe00"
}
bool(false)
bool(true)
string(1) "w"
bool(true)
bool(true)
string(1) "v"
string(8) "computed"
string(8) "computed"
int(5)
int(3)
int(2)
string(10) "default ns"
string(8) "other ns"
bool(true)
bool(true)
int(1)
int(2)
NULL
bool(true)
int(0)
bool(false)
int(2)
consistent
