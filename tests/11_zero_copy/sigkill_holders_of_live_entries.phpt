--TEST--
Shm\Table: zero-copy: readers SIGKILLed while they hold live arrays hold nothing: no pins, their entries evictable, the budget free again, and a proc_open()'d program killed after its holder left holds nothing either
--INI--
table.zero_copy=1
table.zero_copy_budget=512K
table.memory=4M
table.eviction_policy=random
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; table_skip_unless_pcntl(); table_skip_unless_posix();
if (!function_exists('proc_open') || !is_executable('/bin/sleep')) die('skip needs proc_open and /bin/sleep'); ?>
--FILE--
<?php
use Shm\Table;
require __DIR__ . '/../helpers.inc';

// 100 arrays of ~4 KB that four readers hold between them (~420 KB, within the 512 KB budget), and 50
// more for a fresh reader afterwards. Nobody replaces the held ones: they stay live entries.
for ($i = 0; $i < 100; $i++) {
    Table::set("a$i", ['blob' => str_repeat(chr(65 + $i % 26), 4000), 'i' => $i]);
}
for ($i = 0; $i < 50; $i++) {
    Table::set("b$i", ['blob' => str_repeat('b', 4000), 'i' => $i]);
}
$readers = [];
for ($r = 0; $r < 4; $r++) {
    $readers[] = table_child_start(function ($r) {
        $held = [];
        for ($i = $r; $i < 100; $i += 4) {
            $held[] = Table::get("a$i");
        }
        Table::set("holding$r", true);
        while (true) {
            usleep(1000);
        }
    }, $r);
}
table_wait_until(fn() => Table::exists('holding0') && Table::exists('holding1') && Table::exists('holding2') && Table::exists('holding3'));
$s = Table::stats();
echo "while alive: pins {$s['pins']}, held_entries {$s['held_entries']}\n";
foreach ($readers as $child) {
    posix_kill($child['pid'], SIGKILL);
    table_child_wait($child, 0, SIGKILL);
}

// stats() counts live holders and processes only: the dead ones' slots and holds are given back.
$s = Table::stats();
echo "after the kill: pins {$s['pins']}, slots_used {$s['slots_used']}, held_entries {$s['held_entries']}, held_bytes {$s['held_bytes']}\n";

// A fresh reader gets its 50 arrays without a copy: the budget the dead took is free again.
var_dump(table_child_wait(table_child_start(function () {
    $before = Table::stats()['zero_copy_reads'];
    $got = [];
    for ($i = 0; $i < 50; $i++) {
        $got[] = Table::get("b$i");
    }
    return Table::stats()['zero_copy_reads'] - $before;
}, 4)));

// The arrays the dead held are ordinary entries again: 12 MB of writes of their size through the 4 MB
// table evict them (random policy: a few may survive; none could while held).
for ($i = 0; $i < 3000; $i++) {
    Table::set("c$i", str_repeat('c', 4000));
}
$left = 0;
for ($i = 0; $i < 100; $i++) {
    $left += (int) Table::exists("a$i");
}
echo $left < 50 ? "evicted\n" : "kept: $left\n";

// A worker reads an array zero-copy, starts a program with proc_open() (fork + exec: the fork hands the
// worker's holds to the program's process), and ends. The program outlives it and is then killed.
Table::set('p', ['blob' => str_repeat('p', 4000)]);
$worker = table_child_start(function () {
    $held = Table::get('p');
    $p = proc_open(['/bin/sleep', '60'], [], $pipes);
    Table::set('sleeper', proc_get_status($p)['pid']);
    return Table::get('sleeper');
}, 5);
// The program inherits the worker's end of the result socket, so reading the worker's result waits for
// the program too: wait for the worker to end (a zombie, not yet reaped), then kill the program.
$ended = fn(int $pid) => !file_exists("/proc/$pid/stat")
    || preg_match('/\) [ZX] /', (string) @file_get_contents("/proc/$pid/stat")) === 1;
table_wait_until(fn() => $ended($worker['pid']));
$sleeper = Table::get('sleeper');
posix_kill($sleeper, SIGKILL);
// Its parent is gone, so whoever adopted it reaps it: wait until it is a zombie or gone.
table_wait_until(fn() => $ended($sleeper));
var_dump(table_child_wait($worker) === $sleeper);
$s = Table::stats();
echo "after the program was killed: pins {$s['pins']}, held_entries {$s['held_entries']}, slots_used {$s['slots_used']}\n";
?>
--EXPECT--
while alive: pins 4, held_entries 100
after the kill: pins 0, slots_used 1, held_entries 0, held_bytes 0
int(50)
evicted
bool(true)
after the program was killed: pins 0, held_entries 0, slots_used 1
