--TEST--
Shm\Table: zero-copy: a long request holding arrays never makes another process's writes fail in a full table
--INI--
table.zero_copy=1
table.zero_copy_budget=1M
table.memory=2M
table.eviction_policy=lru
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; table_skip_unless_pcntl(); ?>
--FILE--
<?php
use Shm\Table;
require __DIR__ . '/../helpers.inc';

for ($i = 0; $i < 200; $i++) {
    Table::set("a$i", ['i' => $i, 'blob' => str_repeat(chr(97 + $i % 26), 2000)]);
}
// The long request: reads 200 arrays zero-copy and keeps them until the writer is done.
$long = table_child_start(function () {
    $kept = [];
    for ($i = 0; $i < 200; $i++) {
        $kept[] = Table::get("a$i");
    }
    Table::set('reading', Table::stats()['held_entries']);
    while (!Table::exists('writer_done')) {
        usleep(1000);
    }
    $ok = true;
    foreach ($kept as $i => $v) {
        $ok = $ok && $v === ['i' => $i, 'blob' => str_repeat(chr(97 + $i % 26), 2000)];
    }
    return $ok;
}, 0);
table_wait_until(fn() => Table::exists('reading'));
echo "held by the long request: ", Table::get('reading'), "\n";

// Meanwhile this process rewrites everything, 10 MB through the 2 MB table (the held keys included).
$failed = 0;
for ($i = 0; $i < 5000; $i++) {
    $failed += (int) !Table::set('w' . ($i % 700), str_repeat('w', 2000) . $i);
    if ($i % 25 === 0) {
        $failed += (int) !Table::set('a' . ($i / 25 % 200), ['i' => -1]);
    }
}
echo "failed sets: $failed\n";
Table::set('writer_done', true);
var_dump(table_child_wait($long));
var_dump(Table::stats()['held_entries']);
?>
--EXPECT--
held by the long request: 200
failed sets: 0
bool(true)
int(0)
