--TEST--
Shm\Table: named segment: modes that let other users in (table.segment_mode, or the file's own) are refused, before any lock is taken
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; if (!function_exists('proc_open')) die('skip needs proc_open'); ?>
--FILE--
<?php
require __DIR__ . '/segments.inc';
$dir = seg_dir();
$try = 'try { Table::set("k", 1); echo "ok\n"; } catch (Shm\TableException $e) { echo get_class($e), ": ", $e->getMessage(), "\n"; }';
// The setting: any bit for 'other' users, or a group that may read but not write (it could not attach).
foreach (['0666', '0777', '0602', '0604', '0644', '0640', '0620'] as $mode) {
    echo seg_run($dir, "m$mode", $try, ['table.segment_mode' => $mode]);
}
var_dump(count(scandir($dir)) - 2);   // no file was made

// The file: ours, but opened up to every user by hand (or by an older version that accepted 0666).
echo seg_run($dir, 'opened', $try);
chmod("$dir/php-table.opened", 0666);
clearstatcache();
echo seg_run($dir, 'opened', $try);
echo seg_run($dir, 'opened', $try, ['table.segment_mode' => '0660']);
// Refused before its lock is taken: anyone may hold the lock of a file everyone can open.
chmod("$dir/php-table.opened", 0644);
$h = seg_hold_lock("$dir/php-table.opened");
echo seg_finish(seg_start($dir, 'opened', $try));
seg_wait($h);
chmod("$dir/php-table.opened", 0600);
echo seg_run($dir, 'opened', 'var_dump(Table::get("k"));');
?>
--EXPECTF--
Shm\TableException: Shm\Table is unavailable: table.segment_mode=0666 opens the table to every user of this host; use 0600, or 0660 to share it with the file's group
Shm\TableException: Shm\Table is unavailable: table.segment_mode=0777 opens the table to every user of this host; use 0600, or 0660 to share it with the file's group
Shm\TableException: Shm\Table is unavailable: table.segment_mode=0602 opens the table to every user of this host; use 0600, or 0660 to share it with the file's group
Shm\TableException: Shm\Table is unavailable: table.segment_mode=0604 opens the table to every user of this host; use 0600, or 0660 to share it with the file's group
Shm\TableException: Shm\Table is unavailable: table.segment_mode=0644 opens the table to every user of this host; use 0600, or 0660 to share it with the file's group
Shm\TableException: Shm\Table is unavailable: table.segment_mode=0640 gives the file's group some access, but sharing needs read and write; use 0600, or 0660 to share it with the file's group
Shm\TableException: Shm\Table is unavailable: table.segment_mode=0620 gives the file's group some access, but sharing needs read and write; use 0600, or 0660 to share it with the file's group
int(0)
ok
Shm\TableException: Shm\Table is unavailable: segment "opened": %s/php-table.opened has mode 0666, which lets every user of this host open it; refusing to use it (chmod it to 0600 or 0660, or remove it)
Shm\TableException: Shm\Table is unavailable: segment "opened": %s/php-table.opened has mode 0666, which lets every user of this host open it; refusing to use it (chmod it to 0600 or 0660, or remove it)
Shm\TableException: Shm\Table is unavailable: segment "opened": %s/php-table.opened has mode 0644, which lets every user of this host open it; refusing to use it (chmod it to 0600 or 0660, or remove it)
int(1)
