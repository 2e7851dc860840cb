--TEST--
Shm\Table: compression: a compressed value whose declared length was damaged in the segment is corrupt: a Shm\TableException, never "Allowed memory size exhausted"
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; table_skip_unless_compressor('lz4'); table_skip_unless_compressor('zstd'); ?>
--FILE--
<?php
require __DIR__ . '/../13_segments/segments.inc';
/* Issue 33, finding 4, from the segment. A named segment is a file: a process writes a compressed value,
 * then the 4 bytes of its header that declare the length before compression are overwritten in the file
 * (as a stray write or a damaged page would), and the value is read back. Before the fix, that length
 * was allocated before decompressing, and the request ended with a fatal error no caller can catch. */
$dir = seg_dir();
$code = <<<'PHP'
$algorithm = ['lz4' => 1, 'zstd' => 2][ini_get('table.compression')];
$value = str_repeat('a value that compresses well, ', 4000);
var_dump(Table::set('k', $value));
$file = ini_get('table.segment_dir') . '/php-table.' . ini_get('table.segment');
$header = pack('CCvV', $algorithm, 5, 0, strlen($value));   // host order: little-endian here
$at = strpos(file_get_contents($file), $header);
var_dump($at !== false);
foreach ([0x7E000000, 0xFFFFFFFF, strlen($value) + 1] as $declared) {
    $f = fopen($file, 'r+b');
    fseek($f, $at + 4);
    fwrite($f, pack('V', $declared));
    fclose($f);
    try {
        var_dump(Table::get('k'));
    } catch (Shm\TableException $e) {
        echo get_class($e), ": ", $e->getMessage(), "\n";
    }
}
echo "alive\n";
PHP;
foreach (['lz4', 'zstd'] as $i => $c) {
    echo "$c:\n", seg_run($dir, "damaged$i", $code, ['table.compression' => $c, 'table.compression_threshold' => '64']);
}
?>
--EXPECT--
lz4:
bool(true)
bool(true)
Shm\TableException: Shm\Table::get(): the stored value is corrupt (a declared length longer than its lz4 bytes can hold)
Shm\TableException: Shm\Table::get(): the stored value is corrupt (a declared length longer than its lz4 bytes can hold)
Shm\TableException: Shm\Table::get(): the stored value is corrupt (compressed bytes that do not decompress)
alive
zstd:
bool(true)
bool(true)
Shm\TableException: Shm\Table::get(): the stored value is corrupt (a zstd frame whose content size is not the declared length)
Shm\TableException: Shm\Table::get(): the stored value is corrupt (a zstd frame whose content size is not the declared length)
Shm\TableException: Shm\Table::get(): the stored value is corrupt (a zstd frame whose content size is not the declared length)
alive
