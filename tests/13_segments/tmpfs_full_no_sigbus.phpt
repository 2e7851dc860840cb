--TEST--
Shm\Table: named segment: a full file system (/dev/shm) is a TableException when the segment is made or a part of it first used, never a SIGBUS
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; if (!function_exists('proc_open')) die('skip needs proc_open');
table_skip_if_valgrind('mount(8) cannot run as a child traced by valgrind');
if (!function_exists('posix_geteuid') || posix_geteuid() !== 0) die('skip needs root to mount a small tmpfs');
$m = sys_get_temp_dir() . '/table-tmpfs-probe-' . getmypid();
@mkdir($m, 0700);
exec('mount -t tmpfs -o size=1m tmpfs ' . escapeshellarg($m) . ' 2>&1', $out, $rc);
if ($rc === 0) {
    exec('umount ' . escapeshellarg($m));
}
@rmdir($m);
if ($rc !== 0) die('skip cannot mount a tmpfs here: ' . implode(' ', $out));
?>
--FILE--
<?php
require __DIR__ . '/segments.inc';
// A 6 MiB tmpfs: Docker's default /dev/shm (64 MiB) against table.memory=64M, scaled down.
$dir = sys_get_temp_dir() . '/table-tmpfs-' . getmypid();
mkdir($dir, 0700);
exec('mount -t tmpfs -o size=6m,mode=0700 tmpfs ' . escapeshellarg($dir) . ' 2>&1', $out, $rc);
register_shutdown_function(function () use ($dir) {
    exec('umount ' . escapeshellarg($dir));
    @rmdir($dir);
});
if ($rc !== 0 || disk_total_space($dir) != 6 * 1024 * 1024) {
    exit("the 6 MiB tmpfs was not mounted at $dir: " . implode(' ', $out) . "\n");   // never fill another file system
}
$free = fn() => (int) disk_free_space($dir);
$try = 'try { %s; echo "ok\n"; } catch (Shm\TableException $e) { echo get_class($e), ": ", $e->getMessage(), "\n"; }';

// Too big for what is free: refused when it is made, and no file is left for others to find.
echo seg_finish(seg_start($dir, 'big', sprintf($try, 'Table::set("k", 1)'), ['table.memory' => '16M']));
var_dump(file_exists("$dir/php-table.big"), $free() === 6 * 1024 * 1024);

// One that fits, then a file system filled to the last byte by something else.
$zc = ['table.zero_copy' => '1'];
echo seg_finish(seg_start($dir, 'fits', sprintf($try, 'Table::set("arr", range(1, 50)); Table::set("k", 1)'), $zc));
$f = fopen("$dir/filler", 'w');
for ($i = 0; $i < 2048 && @fwrite($f, str_repeat("\1", 4096)) === 4096; $i++) {
}
fclose($f);
var_dump($free());
// A new process attaches, reads (a zero-copy hold needs a page of its own: it copies instead) and
// writes (the heap was reserved when the segment was made). New namespaces share the pages the default
// one got, until one needs a page of its own: refused, and the earlier ones still work.
$code = 'var_dump(Table::get("arr") === range(1, 50), Table::get("k"));' . sprintf($try, 'Table::set("k", 2)') . '
    for ($i = 1; $i <= 300; $i++) {
        try { Table::set("k", $i, null, "t$i"); } catch (Shm\TableException $e) { echo get_class($e), ": ", $e->getMessage(), "\n"; break; }
    }
    var_dump($i > 1 && $i <= 300, Table::get("k", "t" . ($i - 1)) === $i - 1, Table::get("k", "t$i"));';
echo seg_finish(seg_start($dir, 'fits', $code, $zc));
// Room again: that namespace is made.
unlink("$dir/filler");
echo seg_finish(seg_start($dir, 'fits', '$n = count(Table::namespaces());' . sprintf($try, 'Table::set("k", 1, null, "t$n")')
    . 'var_dump(Table::get("k", "t$n"), Table::get("k"));', $zc));
?>
--EXPECTF--
Shm\TableException: Shm\Table is unavailable: segment "big": no room for a segment of %d bytes in %s/php-table.big: posix_fallocate() failed: No space left on device (%d bytes free there); make room, enlarge that file system (Docker: --shm-size), or lower table.memory
bool(false)
bool(true)
ok
int(0)
bool(true)
int(1)
ok
Shm\TableException: Shm\Table::set(): no room for a new namespace in %s/php-table.fits: posix_fallocate() failed: No space left on device (0 bytes free there); make room, enlarge that file system (Docker: --shm-size), or lower table.memory
bool(true)
bool(true)
NULL
ok
int(1)
int(2)
