--TEST--
Shm\Table: types: a 1 MB binary string and an 8 MB string round-trip intact
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

$mb = random_bytes(1024 * 1024);
var_dump(Table::set('mb', $mb));
$got = Table::get('mb');
var_dump(strlen($got), $got === $mb);

$eight = str_repeat(random_bytes(4096), 2048);
var_dump(Table::set('eight', $eight));
var_dump(md5(Table::get('eight')) === md5($eight));
var_dump(Table::memory() >= 9 * 1024 * 1024);
// inside an array too
var_dump(Table::set('arr', ['x' => $mb, 'y' => [$mb]]));
$a = Table::get('arr');
var_dump($a['x'] === $mb, $a['y'][0] === $mb);
?>
--EXPECT--
bool(true)
int(1048576)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
