--TEST--
Shm\Table: named segment: a header of an older version is replaced at once, in one log line; a newer version's, a damaged header, or a file that is no segment, throws; table.segment_recreate=1 replaces those
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; if (!function_exists('proc_open')) die('skip needs proc_open'); ?>
--FILE--
<?php
require __DIR__ . '/segments.inc';
$dir = seg_dir();
$try = 'try { var_dump(Table::get("k")); Table::set("k", "new"); $s = Table::stats(); var_dump($s["segment_created"], $s["segment_note"]); } catch (Shm\TableException $e) { echo get_class($e), ": ", $e->getMessage(), "\n"; }';
echo seg_run($dir, 'v', 'Table::set("k", "old");');
// The version the segment was made by: 32 bytes at offset 16 of its header. A cache: an older build's
// segment is replaced by the first process of this one (the log, here stderr, says so once).
function made_by(string $file, string $version): void
{
    $f = fopen($file, 'r+');
    fseek($f, 16);
    fwrite($f, str_pad($version, 32, "\0"));
    fclose($f);
}
made_by("$dir/php-table.v", '0.0.1');
echo seg_run($dir, 'v', $try);
echo seg_run($dir, 'v', $try);
// A newer build's is not replaced by this older one (a cron job still on the old table.so would empty
// the upgraded pools' table each time it ran), unless asked for: a downgrade.
made_by("$dir/php-table.v", '9.9.9');
echo seg_run($dir, 'v', $try);
echo seg_run($dir, 'v', $try, ['table.segment_recreate' => '1']);

// A damaged header (its size, 8 bytes at offset 96, past its mapping's): refused unless asked for.
$f = fopen("$dir/php-table.v", 'r+');
fseek($f, 96);
fwrite($f, pack('P', 1 << 40));
fclose($f);
echo seg_run($dir, 'v', $try);
echo seg_run($dir, 'v', $try, ['table.segment_recreate' => '1']);

file_put_contents("$dir/php-table.junk", "not a table at all\n");
chmod("$dir/php-table.junk", 0600);
echo seg_run($dir, 'junk', $try);
echo seg_run($dir, 'junk', $try, ['table.segment_recreate' => '1']);
?>
--EXPECTF--
NULL
bool(true)
string(%d) "replaced: it was made by version 0.0.1, this is version %s"
Shm\Table: segment "v" (%s/php-table.v) replaced: it was made by version 0.0.1, this is version %s; a new, empty one took its place (processes still using the old one keep it until they end or, at their next request, move to the new one)
string(3) "new"
bool(false)
NULL
Shm\TableException: Shm\Table is unavailable: segment "v": %s/php-table.v was made by a newer build than this one: it was made by version 9.9.9, this is version %s; this process's table.so is older: upgrade it (every PHP that names the segment), or set table.segment_recreate=1 to replace the segment with this build's (a downgrade)
NULL
bool(true)
string(%d) "replaced: it was made by version 9.9.9, this is version %s"
Shm\Table: segment "v" (%s/php-table.v) replaced: it was made by version 9.9.9, this is version %s; a new, empty one took its place (processes still using the old one keep it until they end or, at their next request, move to the new one)
Shm\TableException: Shm\Table is unavailable: segment "v": %s/php-table.v does not match this build: its header is damaged (size 1099511627776, mapping %d); remove the file or set table.segment_recreate=1
NULL
bool(true)
string(%d) "replaced (table.segment_recreate=1): its header is damaged (size 1099511627776, mapping %d)"
Shm\TableException: Shm\Table is unavailable: segment "junk": %s/php-table.junk is not a table segment (unknown header); remove the file or set table.segment_recreate=1
NULL
bool(true)
string(%d) "replaced a file that was not a table segment (table.segment_recreate=1)"
