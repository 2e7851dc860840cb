--TEST--
Shm\Table: compression: asking for a compressor the build does not have makes the table unavailable, saying which configure option adds it
--INI--
table.compression=zstd
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc';
ob_start();
phpinfo(INFO_MODULES);
if (preg_match('/^Compressors => .*zstd/m', ob_get_clean())) {
    die('skip this build has zstd');
}
?>
--FILE--
<?php
try {
    Shm\Table::set('k', 1);
} catch (Shm\TableException $e) {
    echo $e->getMessage(), "\n";
}
?>
--EXPECT--
Shm\Table is unavailable: table.compression=zstd needs a build with zstd (configure --with-table-zstd, libzstd)
