--TEST--
Shm\Table: compression: with table.compression=lz4, strings, arrays and objects come back identical, stored smaller; what does not shrink is stored as it is
--INI--
table.compression=lz4
table.memory=16M
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; table_skip_unless_compressor('lz4'); ?>
--FILE--
<?php
require __DIR__ . '/compression.inc';
cmp_roundtrip();
?>
--EXPECT--
a 100 KB JSON string: same, stored in under 40 KB
an array of 2,000 rows: same, stored in under a third of its serialized size
an object holding 500 rows: same, stored in under a third of its serialized size
50 KB of random bytes: same, stored as they are
a short string: same
bool(false)
bool(false)
bool(true)
string(1) "y"
string(3) "lz4"
