--TEST--
Shm\Table: named segment: table.segment_mode=0660 shares the table with another user of the file's group; a group it does not trust is refused
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; if (!function_exists('proc_open')) die('skip needs proc_open');
if (!function_exists('posix_geteuid') || posix_geteuid() !== 0) die('skip needs root to run processes of two other users');
table_skip_if_valgrind("valgrind's traced children, run as another user, cannot write its log");
foreach (['setpriv', 'useradd', 'groupadd', 'usermod'] as $tool) {
    if (trim((string) shell_exec("PATH=\$PATH:/usr/sbin:/sbin command -v $tool")) === '') die("skip needs $tool");
}
require __DIR__ . '/segments.inc';
$probe = shell_exec('setpriv --reuid=nobody --regid=nogroup --clear-groups ' . escapeshellarg(PHP_BINARY) . ' -n -d '
    . escapeshellarg('extension=' . seg_ext()) . ' -r ' . escapeshellarg('echo extension_loaded("table") ? "yes" : "no";') . ' 2>/dev/null');
if ($probe !== 'yes') die('skip another user cannot load ' . seg_ext());
?>
--FILE--
<?php
require __DIR__ . '/segments.inc';
putenv('PATH=' . getenv('PATH') . ':/usr/sbin:/sbin');

function must(string $cmd): void
{
    exec($cmd . ' 2>&1', $out, $rc);
    if ($rc !== 0) {
        throw new RuntimeException("$cmd: " . implode("\n", $out));
    }
}

/* A PHP of user $user (its own group first, then its supplementary groups, as a login gets them). */
function start_as(string $user, string $dir, string $name, string $code, array $ini = []): array
{
    $argv = array_merge(['setpriv', "--reuid=$user", "--regid=$user", '--init-groups'], seg_argv($dir, $name, $code, $ini));
    $p = proc_open($argv, [0 => ['pipe', 'r'], 1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes, $dir);
    if (!is_resource($p)) {
        throw new RuntimeException('proc_open failed');
    }
    return ['proc' => $p, 'in' => $pipes[0], 'out' => $pipes[1], 'err' => $pipes[2]];
}

// Two users who share a group, as php-fpm's user and a deploy user running a cron job do.
if (!posix_getgrnam('tbltest')) {
    must('groupadd tbltest');
}
foreach (['tbltest1', 'tbltest2'] as $u) {
    must(posix_getpwnam($u) ? "usermod -a -G tbltest $u" : "useradd -M -U -s /usr/sbin/nologin -G tbltest $u");
}
// The segments' directory belongs to the group, setgid: every file made in it gets that group.
$dir = seg_dir();
chgrp($dir, 'tbltest');
chmod($dir, 02770);
$share = ['table.segment_mode' => '0660'];
$try = 'try { Table::set("k", 1); echo "ok\n"; } catch (Shm\TableException $e) { echo get_class($e), ": ", $e->getMessage(), "\n"; }';

$a = start_as('tbltest1', $dir, 'shared', 'Table::set("from1", "one"); echo "set\n"; fgets(STDIN);
    var_dump(Table::get("from2"), Table::get("n")); echo Table::stats()["segment_created"] ? "created\n" : "attached\n";', $share);
echo seg_line($a), "\n";
$b = start_as('tbltest2', $dir, 'shared', 'var_dump(Table::get("from1")); Table::set("from2", "two");
    var_dump(Table::increment("n")); echo Table::stats()["segment_created"] ? "created\n" : "attached\n";', $share);
echo seg_finish($b);
seg_send($a);
echo seg_finish($a);
$st = stat("$dir/php-table.shared");
printf("%s:%s %o\n", posix_getpwuid($st['uid'])['name'], posix_getgrgid($st['gid'])['name'], $st['mode'] & 0777);

// The same user with the default table.segment_mode=0600 trusts no other user, group or not.
$p = start_as('tbltest2', $dir, 'shared', $try);
echo seg_finish($p);
// Root bypasses the file's permissions, so only the table's own checks stop it: root is not in the
// file's group ...
echo seg_run($dir, 'shared', $try, $share);
// ... and a file its group may not write is its owner's alone.
chmod("$dir/php-table.shared", 0600);
clearstatcache();
posix_setgid(posix_getgrnam('tbltest')['gid']);   // now root's group is the file's
echo seg_run($dir, 'shared', $try, $share);
?>
--EXPECTF--
set
string(3) "one"
int(1)
attached
string(3) "two"
int(1)
created
tbltest1:tbltest 660
Shm\TableException: Shm\Table is unavailable: segment "shared": %s/php-table.shared is owned by uid %d, not by this process's user (uid %d); refusing to use it (its group, gid %d, which this process is in, may share it: set table.segment_mode=0660 to trust that group)
Shm\TableException: Shm\Table is unavailable: segment "shared": %s/php-table.shared is owned by uid %d and shared with its group, gid %d, which this process's user (uid 0) is not in; refusing to use it
Shm\TableException: Shm\Table is unavailable: segment "shared": %s/php-table.shared is owned by uid %d and not shared with its group (mode 0600); refusing to use it
