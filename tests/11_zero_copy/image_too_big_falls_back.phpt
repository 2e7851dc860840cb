--TEST--
Shm\Table: zero-copy: an array whose image would not fit, or is big and over twice its compact encoding, is stored compactly instead: what fits copied fits with zero-copy on
--INI--
table.zero_copy=1
table.memory=16M
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

// 300,000 short strings: about 4 MB in the compact encoding, about 17 MB as an image (more than the
// 16 MB table's largest value once its bookkeeping is counted).
$strs = [];
for ($i = 0; $i < 300000; $i++) {
    $strs[] = "value-$i";
}
var_dump(Table::set('strs', $strs));
$s = Table::stats();
$got = Table::get('strs');
$t = Table::stats();
var_dump($got === $strs, $t['zero_copy_reads'] - $s['zero_copy_reads'], $t['copied_reads'] - $s['copied_reads']);
var_dump(Table::getWithMeta('strs')[1]['length'] < 6 * 1024 * 1024);
// 5,000 short strings would fit as an image, but one of 64 KB or more that is over twice the compact
// encoding is stored compactly too.
$list = [];
for ($i = 0; $i < 5000; $i++) {
    $list[] = "v$i";
}
Table::set('list', $list);
$s = Table::stats();
var_dump(Table::get('list') === $list, Table::stats()['zero_copy_reads'] - $s['zero_copy_reads']);
// A small array still gets an image and is read without a copy.
Table::set('small', ['a' => 1, 'b' => [2, 3]]);
$s = Table::stats();
var_dump(Table::get('small') === ['a' => 1, 'b' => [2, 3]], Table::stats()['zero_copy_reads'] - $s['zero_copy_reads']);
?>
--EXPECT--
bool(true)
bool(true)
int(0)
int(1)
bool(true)
bool(true)
int(0)
bool(true)
int(1)
