--TEST--
Shm\Table: compression: with zero-copy reads on, arrays are stored as images and read in place, never compressed; strings are compressed and come back identical
--INI--
table.compression=lz4
table.zero_copy=1
table.memory=16M
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; table_skip_unless_compressor('lz4'); ?>
--FILE--
<?php
require __DIR__ . '/compression.inc';
use Shm\Table;

$rows = cmp_rows(20);   // small enough to be an image (a large one may be stored compactly: image.c)
[$same, $bytes] = cmp_store('rows', $rows);
$before = Table::stats()['zero_copy_reads'];
$back = Table::get('k', 'rows');
echo 'array: ', $same && $back === $rows ? 'same' : 'DIFFERENT', ', read in place: ', var_export(Table::stats()['zero_copy_reads'] > $before, true),
    ', not compressed: ', var_export($bytes > strlen(serialize($rows)) / 3, true), "\n";
[$same, $bytes] = cmp_store('json', cmp_json(100000));
echo 'string: ', $same ? 'same' : 'DIFFERENT', ', compressed: ', var_export($bytes < 40000, true), "\n";
?>
--EXPECT--
array: same, read in place: true, not compressed: true
string: same, compressed: true
