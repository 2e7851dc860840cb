--TEST--
Shm\Table: errors: a 65,536-byte key is a ValueError; 65,535 bytes is fine
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

$max = str_repeat('k', 65535);
$over = $max . 'k';
var_dump(Table::set($max, 'max'));
var_dump(Table::get($max), Table::exists($max), Table::keys('k*') === [$max]);
$calls = [
    fn() => Table::set($over, 'v'),
    fn() => Table::get($over),
    fn() => Table::add($over, 'v'),
    fn() => Table::exists($over),
    fn() => Table::delete($over),
    fn() => Table::increment($over),
    fn() => Table::touch($over, null),
    fn() => Table::set(str_repeat('x', 1 << 20), 'v'),
];
foreach ($calls as $call) {
    try {
        var_dump($call());
    } catch (ValueError $e) {
        echo $e->getMessage(), "\n";
    }
}
var_dump(Table::count(), Table::get($max));
// a key of the maximum size made of binary bytes works too
$bin = str_repeat("\0\xff", 32767) . "\x01";
var_dump(strlen($bin), Table::set($bin, 'bin'), Table::get($bin), Table::count());
?>
--EXPECT--
bool(true)
string(3) "max"
bool(true)
bool(true)
Shm\Table::set(): Argument #1 ($key) must be at most 65535 bytes long
Shm\Table::get(): Argument #1 ($key) must be at most 65535 bytes long
Shm\Table::add(): Argument #1 ($key) must be at most 65535 bytes long
Shm\Table::exists(): Argument #1 ($key) must be at most 65535 bytes long
Shm\Table::delete(): Argument #1 ($key) must be at most 65535 bytes long
Shm\Table::increment(): Argument #1 ($key) must be at most 65535 bytes long
Shm\Table::touch(): Argument #1 ($key) must be at most 65535 bytes long
Shm\Table::set(): Argument #1 ($key) must be at most 65535 bytes long
int(1)
string(3) "max"
int(65535)
bool(true)
string(3) "bin"
int(2)
