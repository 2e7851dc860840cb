--TEST--
Shm\Table: zero-copy: a worker SIGKILLed while it holds arrays doesn't hold memory forever: its holds are reaped
--INI--
table.zero_copy=1
table.zero_copy_budget=4M
table.memory=4M
table.eviction_policy=noeviction
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; table_skip_unless_pcntl(); table_skip_unless_posix(); ?>
--FILE--
<?php
use Shm\Table;
require __DIR__ . '/../helpers.inc';

// The dead readers hold up to 900 KB between them: table.zero_copy_budget=4M keeps that under the
// budget, so that every one of them holds its array.
Table::set('big', ['payload' => str_repeat('r', 300000)]);
for ($round = 0; $round < 3; $round++) {
    $child = table_child_start(function () use ($round) {
        $before = Table::stats()['zero_copy_reads'];
        $held = Table::get('big');
        Table::set("held$round", Table::stats()['zero_copy_reads'] - $before);
        while (true) {
            usleep(1000);
        }
    }, $round);
    table_wait_until(fn() => Table::exists("held$round"));
    var_dump(Table::get("held$round"));
    // While the child is alive its hold keeps the replaced value.
    Table::set('big', ['payload' => str_repeat('s', 300000)]);
    echo "held while alive: ", Table::stats()['held_entries'] >= 1 ? 'yes' : 'no', "\n";
    posix_kill($child['pid'], SIGKILL);
    table_child_wait($child, 0, SIGKILL);
}
// The dead holders are reaped by the writers that need memory (checks for dead holders are spaced
// out): overwrite until that has happened, then 30 MB of overwrites through the 4 MB table all succeed.
var_dump(table_wait_until(function () {
    Table::set('big', ['payload' => str_repeat('t', 300000)]);
    return Table::stats()['held_entries'] === 0;
}));
$failed = 0;
for ($i = 0; $i < 100; $i++) {
    $failed += (int) !Table::set('big', ['payload' => str_repeat(chr(65 + $i % 26), 300000)]);
}
$s = Table::stats();
var_dump($failed, $s['pins'], $s['held_bytes'], $s['held_retired_bytes']);
?>
--EXPECT--
int(1)
held while alive: yes
int(1)
held while alive: yes
int(1)
held while alive: yes
bool(true)
int(0)
int(0)
int(0)
int(0)
