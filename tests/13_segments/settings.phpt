--TEST--
Shm\Table: named segment: 0600 by default, table.segment_mode for a new file, and invalid settings named in the error
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; if (!function_exists('proc_open')) die('skip needs proc_open'); ?>
--FILE--
<?php
require __DIR__ . '/segments.inc';
$dir = seg_dir();
$try = 'try { Table::set("k", 1); echo "ok\n"; } catch (Shm\TableException $e) { echo $e->getMessage(), "\n"; }';
echo seg_run($dir, 'private', $try);
printf("%o\n", fileperms("$dir/php-table.private") & 0777);
echo seg_run($dir, 'group', $try, ['table.segment_mode' => '0660']);
printf("%o\n", fileperms("$dir/php-table.group") & 0777);
echo seg_run($dir, 'x.y_Z-9', $try);
echo seg_run($dir, str_repeat('n', 64), $try);
echo seg_run($dir, str_repeat('n', 65), $try);
echo seg_run($dir, '../escape', $try);
echo seg_run($dir, 'sp ace', $try);
echo seg_run($dir, 'bad', $try, ['table.segment_mode' => '0400']);
echo seg_run($dir, 'bad', $try, ['table.segment_mode' => '0999']);
echo seg_run($dir, 'bad', $try, ['table.segment_dir' => 'relative/dir']);
echo seg_run($dir, 'missing', $try, ['table.segment_dir' => "$dir/no/such/dir"]);
var_dump(file_exists("$dir/../php-table.escape"), count(scandir($dir)) - 2);
?>
--EXPECTF--
ok
600
ok
660
ok
ok
Shm\Table is unavailable: table.segment=nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn is too long; use 1 to 64 characters of A-Z, a-z, 0-9, '.', '_' and '-'
Shm\Table is unavailable: table.segment=../escape is not valid; use 1 to 64 characters of A-Z, a-z, 0-9, '.', '_' and '-'
Shm\Table is unavailable: table.segment=sp ace is not valid; use 1 to 64 characters of A-Z, a-z, 0-9, '.', '_' and '-'
Shm\Table is unavailable: table.segment_mode=0400 is not valid; use octal permission bits that include 0600 (owner read and write), e.g. 0600, or 0660 to share with the file's group
Shm\Table is unavailable: table.segment_mode=0999 is not valid; use octal permission bits that include 0600 (owner read and write), e.g. 0600, or 0660 to share with the file's group
Shm\Table is unavailable: table.segment_dir=relative/dir is not valid; use an absolute directory path (e.g. /dev/shm)
Shm\Table is unavailable: segment "missing": open(%s/no/such/dir/php-table.missing) failed: No such file or directory
bool(false)
int(4)
