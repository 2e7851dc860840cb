--TEST--
Shm\Table: multiprocess: readers SIGKILLed mid-read don't stop memory from being reclaimed
--INI--
table.memory=4M
table.eviction_policy=noeviction
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; table_skip_unless_pcntl(); table_skip_unless_posix(); ?>
--FILE--
<?php
use Shm\Table;
require __DIR__ . '/../helpers.inc';

$big = str_repeat('r', 300000);
Table::set('big', $big);
for ($round = 0; $round < 5; $round++) {
    $child = table_child_start(function () use ($round) {
        Table::set("reading$round", true);
        while (true) {
            Table::get('big');
        }
    });
    table_wait_until(fn() => Table::exists("reading$round"));
    usleep(20000);
    posix_kill($child['pid'], SIGKILL);
    table_child_wait($child, 0, SIGKILL);
}
// 30 MB of overwrites through a 4 MB table: only works if replaced values are reclaimed
$failed = 0;
for ($i = 0; $i < 100; $i++) {
    if (!Table::set('big', str_repeat(chr(65 + $i % 26), 300000))) {
        $failed++;
    }
}
var_dump($failed, Table::get('big') === str_repeat(chr(65 + 99 % 26), 300000));
?>
--EXPECT--
int(0)
bool(true)
