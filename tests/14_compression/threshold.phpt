--TEST--
Shm\Table: compression: values under table.compression_threshold are stored as they are, values at it or over are compressed
--INI--
table.compression=zstd
table.compression_threshold=32K
table.memory=16M
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; table_skip_unless_compressor('zstd'); ?>
--FILE--
<?php
require __DIR__ . '/compression.inc';
foreach ([32767, 32768, 100000] as $n) {
    [$same, $bytes] = cmp_store("n$n", cmp_json($n));
    echo "$n bytes: ", $same ? 'same' : 'DIFFERENT', ', ', $bytes > $n ? 'as they are' : 'compressed', "\n";
}
?>
--EXPECT--
32767 bytes: same, as they are
32768 bytes: same, compressed
100000 bytes: same, compressed
