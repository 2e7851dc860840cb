--TEST--
Shm\Table: zero-copy: a program started with proc_open() or pcntl_exec() after a zero-copy read holds nothing
--INI--
table.zero_copy=1
table.memory=4M
table.eviction_policy=noeviction
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; table_skip_unless_pcntl(); table_skip_unless_posix();
table_skip_if_valgrind('the program proc_open() starts was found dead when checked under valgrind (not understood yet); core/test/test_epoch.c covers the exec\'d holder');
if (!function_exists('proc_open') || !is_executable('/bin/sleep')) die('skip needs proc_open and /bin/sleep'); ?>
--FILE--
<?php
use Shm\Table;
require __DIR__ . '/../helpers.inc';

Table::set('k', ['blob' => str_repeat('k', 300000)]);

// 1. A worker reads 'k' zero-copy, then starts a program with proc_open() and ends its request. Up to
//    PHP 8.2 that is fork + exec (the fork takes over the worker's holds, then runs /bin/sleep); from 8.3
//    on it is posix_spawn(), which hands nothing over. Either way the program holds nothing once it runs.
//    The worker is a bare fork reporting through the table, not table_child_start(): the program inherits
//    the worker's descriptors (posix_spawn() closes none), so a result pipe would never reach EOF while it
//    runs. (600 s: the programs are killed below; they must outlive the test however slow the machine is.)
$worker = pcntl_fork();
if ($worker === 0) {
    $held = Table::get('k');
    $p = proc_open(['/bin/sleep', '600'], [], $pipes);
    Table::set('sleeper', proc_get_status($p)['pid']);
    Table::set('worker read', $held['blob'][0]);
    exit(0);
}
pcntl_waitpid($worker, $status);
var_dump(Table::get('worker read'));
$sleeper = Table::get('sleeper');

// 2. A worker reads 'k' zero-copy, then replaces itself with /bin/sleep.
$execd = pcntl_fork();
if ($execd === 0) {
    $held = Table::get('k');
    Table::set('execing', true);
    pcntl_exec('/bin/sleep', ['600']);
    exit(1);
}
table_wait_until(fn() => Table::exists('execing'));
table_wait_until(fn() => str_contains((string) @readlink("/proc/$execd/exe"), 'sleep'));

// Both programs are alive, and neither may keep 'k' from being freed: overwrite it until the writers
// have checked on its holders (spaced out), then 30 MB of overwrites through the 4 MB table all succeed.
var_dump(posix_kill($sleeper, 0), posix_kill($execd, 0));
// stats() counts live holders only: it checks the holders (their maps too) and releases the programs'.
echo "holders stats() counts: ", Table::stats()['pins'], "\n";
var_dump(table_wait_until(function () {
    Table::set('k', ['blob' => str_repeat('n', 300000)]);
    return Table::stats()['held_entries'] === 0;
}));
$failed = 0;
for ($i = 0; $i < 100; $i++) {
    $failed += (int) !Table::set('k', ['blob' => str_repeat(chr(65 + $i % 26), 300000)]);
}
$s = Table::stats();
var_dump($failed, $s['pins'], $s['held_retired_bytes']);
var_dump(posix_kill($sleeper, 0), posix_kill($execd, 0));   // still running all along
posix_kill($sleeper, SIGKILL);
posix_kill($execd, SIGKILL);
pcntl_waitpid($execd, $status);
?>
--EXPECT--
string(1) "k"
bool(true)
bool(true)
holders stats() counts: 0
bool(true)
int(0)
int(0)
int(0)
bool(true)
bool(true)
