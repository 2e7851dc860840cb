--TEST--
Shm\Table: zero-copy: a worker SIGKILLed while pinned doesn't hold memory forever: its pin is reaped
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
// budget, so that every one of them pins.
Table::set('big', ['payload' => str_repeat('r', 300000)]);
for ($round = 0; $round < 3; $round++) {
    $child = table_child_start(function () use ($round) {
        $before = Table::stats()['zero_copy_reads'];
        $held = Table::get('big');
        Table::set("pinned$round", Table::stats()['zero_copy_reads'] - $before);
        while (true) {
            usleep(1000);
        }
    }, $round);
    table_wait_until(fn() => Table::exists("pinned$round"));
    var_dump(Table::get("pinned$round"));
    // While the child is alive its pin holds the replaced value back.
    Table::set('big', ['payload' => str_repeat('s', 300000)]);
    echo "held while alive: ", Table::stats()['retired_bytes'] >= 300000 ? 'yes' : 'no', "\n";
    posix_kill($child['pid'], SIGKILL);
    table_child_wait($child, 0, SIGKILL);
}
// 30 MB of overwrites through a 4 MB table: only works once the dead children's pins are reaped.
$failed = 0;
for ($i = 0; $i < 100; $i++) {
    $failed += (int) !Table::set('big', ['payload' => str_repeat(chr(65 + $i % 26), 300000)]);
}
$s = Table::stats();
var_dump($failed, $s['pins'], $s['retired_bytes'] < 1000000);
?>
--EXPECT--
int(1)
held while alive: yes
int(1)
held while alive: yes
int(1)
held while alive: yes
int(0)
int(0)
bool(true)
