--TEST--
Shm\Table: named segment: a header of another version, or a file that is no segment, throws; table.segment_recreate=1 replaces it
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; if (!function_exists('proc_open')) die('skip needs proc_open'); ?>
--FILE--
<?php
require __DIR__ . '/segments.inc';
$dir = seg_dir();
$try = 'try { var_dump(Table::get("k")); Table::set("k", "new"); $s = Table::stats(); var_dump($s["segment_created"], $s["segment_note"]); } catch (Shm\TableException $e) { echo get_class($e), ": ", $e->getMessage(), "\n"; }';
echo seg_run($dir, 'v', 'Table::set("k", "old");');
// The version the segment was made by: 32 bytes at offset 16 of its header.
$f = fopen("$dir/php-table.v", 'r+');
fseek($f, 16);
fwrite($f, str_pad('9.9.9', 32, "\0"));
fclose($f);
echo seg_run($dir, 'v', $try);
echo seg_run($dir, 'v', $try, ['table.segment_recreate' => '1']);
echo seg_run($dir, 'v', $try);

file_put_contents("$dir/php-table.junk", "not a table at all\n");
chmod("$dir/php-table.junk", 0600);
echo seg_run($dir, 'junk', $try);
echo seg_run($dir, 'junk', $try, ['table.segment_recreate' => '1']);
?>
--EXPECTF--
Shm\TableException: Shm\Table is unavailable: segment "v": %s/php-table.v does not match this build: it was made by version 9.9.9, this is version %s; remove the file or set table.segment_recreate=1
NULL
bool(true)
string(%d) "replaced (table.segment_recreate=1): it was made by version 9.9.9, this is version %s"
string(3) "new"
bool(false)
NULL
Shm\TableException: Shm\Table is unavailable: segment "junk": %s/php-table.junk is not a table segment (unknown header); remove the file or set table.segment_recreate=1
NULL
bool(true)
string(%d) "replaced a file that was not a table segment (table.segment_recreate=1)"
