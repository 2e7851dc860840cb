--TEST--
Shm\Table: reliability: memory_limit exhausted while get() materializes a large array: the table stays usable and nothing stays pinned
--INI--
table.zero_copy=0
zend.signal_check=1
memory_limit=256M
table.memory=16M
table.eviction_policy=noeviction
--SKIPIF--
<?php
require __DIR__ . '/../skipif.inc';
table_skip_unless_pcntl();
table_skip_unless_posix();
if (getenv('USE_ZEND_ALLOC') === '0') die('skip memory_limit is not enforced without the Zend allocator (valgrind)');
?>
--FILE--
<?php
// table.zero_copy=0: this test is about memory_limit hitting while get() copies an array; a
// zero-copy read allocates nothing.
use Shm\Table;
require __DIR__ . '/../helpers.inc';
require __DIR__ . '/reliability.inc';

/*
 * PHP up to 8.2.34 bails out (longjmp) from the allocation that crosses memory_limit, i.e. from inside
 * get()'s materialization, and shutdown functions run. From 8.2.35 on the error is delayed to a safe
 * point, and a process that allocates far past the limit before reaching one is ended on the spot with
 * _exit(137) ("Hard memory limit ... exhausted"): it dies in the middle of get(). Either way the table must
 * stay consistent and usable, and must not stay pinned by the unfinished read. The exhaustion happens in
 * children so that every ending can be observed; their stderr goes to a file that is checked for
 * zend_signal warnings.
 */
function strings(int $n): array
{
    $a = [];
    for ($i = 0; $i < $n; $i++) {
        $a["key$i"] = "value number $i";
    }
    return $a;
}
/* get($key) in a child with $headroom bytes of memory_limit left. Returns [how it ended, the line its
 * shutdown function wrote (if it ran), whether stderr shows a zend_signal warning]. */
function exhaust(string $key, int $headroom, string $log): array
{
    $child = table_child_start(function () use ($key, $headroom, $log) {
        $err = rel_stderr_to($log);
        register_shutdown_function(function () use ($key, $err) {
            $e = error_get_last();
            ini_set('memory_limit', '256M');
            set_time_limit(60);
            // the same process, after the fatal error: set/get/delete, and a forked writer on the same key
            $ok = Table::set('own', 'x') && Table::get('own') === 'x' && Table::delete('own');
            $grandchild = rel_in_child(fn() => Table::set($key, 'rewritten') && Table::get($key) === 'rewritten');
            fwrite($err, 'shutdown: ' . (str_contains($e['message'] ?? '', 'Allowed memory size') ? 'after the fatal error, ' : 'NO FATAL ERROR, ')
                . ($ok ? 'set/get/delete ok' : 'set/get/delete FAILED')
                . ', a forked writer rewrote the key: ' . var_export($grandchild, true)
                . ', ' . rel_locks_free('shutdown') . ', ' . rel_consistency() . "\n");
        });
        gc_mem_caches();
        ini_set('memory_limit', (string) (memory_get_usage(true) + $headroom));
        $v = Table::get($key);
        fwrite($err, 'get() returned ' . count($v) . " elements\n");
    });
    stream_get_contents($child['result']);
    pcntl_waitpid($child['pid'], $status);
    $text = (string) file_get_contents($log);
    unlink($log);
    $code = pcntl_wifexited($status) ? pcntl_wexitstatus($status) : -pcntl_wtermsig($status);
    preg_match('/^shutdown: .*$/m', $text, $m);
    $how = match (true) {
        $code === 255 && isset($m[0]) => 'fatal error',
        $code === 137 => 'ended by the allocator',
        default => "UNEXPECTED exit $code: $text",
    };
    return [$how, $m[0] ?? null, str_contains($text, 'zend_signal')];
}

rel_seed(200);
$log = sys_get_temp_dir() . '/table-memlimit-' . getmypid() . '.log';

// 1. far past the limit: bails out of get()'s materialization, or dies inside it
var_dump(Table::set('big', strings(100000)));
[$how, $shutdown, $sig] = exhaust('big', 1 << 20, $log);
echo 'child 1 stopped by the memory limit: ', var_export($how === 'fatal error' || $how === 'ended by the allocator', true),
    $sig ? ' (zend_signal warning!)' : '', "\n";
if (str_starts_with($how, 'UNEXPECTED') || ($shutdown !== null && !str_contains($shutdown, 'locks free, consistent'))) {
    echo "$how\n$shutdown\n";
}

// 2. a little past the limit (one 4 MB allocation against 2 MB of headroom): a fatal error in every PHP
//    version, so its shutdown function runs and checks the table from the same process
var_dump(Table::set('ints', range(0, 199999)));
[$how, $shutdown, $sig] = exhaust('ints', 2 << 20, $log);
echo "child 2: $how", $sig ? ' (zend_signal warning!)' : '', "\n", $shutdown ?? 'no shutdown output', "\n";
var_dump(Table::get('ints'));

// 3. the parent: everything intact, the same keys writable, and the memory of replaced values is
//    reclaimed although both children left a read unfinished: 40 overwrites of 3 MB in a 16 MB table
echo 'seeded values intact: ', rel_verify_seeded(200) === 0 ? 'yes' : 'NO', "\n";
echo rel_consistency(), "\n";
// 'big' holds its value, or what child 1's shutdown function had written when it ran
var_dump(in_array(Table::get('big'), [strings(100000), 'rewritten'], true));
$refused = 0;
for ($i = 0; $i < 40; $i++) {
    $refused += !Table::set('big', str_repeat(chr(65 + $i % 26), 3 << 20));
}
echo "$refused of 40 overwrites refused\n";
echo 'writer child: ', rel_in_child(fn() => rel_locks_free('child') . ', ' . rel_consistency()), "\n";
echo 'this process: ', rel_locks_free('parent'), "\n";
echo rel_consistency(), "\n";
?>
--EXPECT--
bool(true)
child 1 stopped by the memory limit: true
bool(true)
child 2: fatal error
shutdown: after the fatal error, set/get/delete ok, a forked writer rewrote the key: true, locks free, consistent
string(9) "rewritten"
seeded values intact: yes
consistent
bool(true)
0 of 40 overwrites refused
writer child: locks free, consistent
this process: locks free
consistent
