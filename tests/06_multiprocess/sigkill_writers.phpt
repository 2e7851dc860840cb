--TEST--
Shm\Table: multiprocess: SIGKILLed writers never wedge the table or corrupt other entries
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; table_skip_unless_pcntl(); table_skip_unless_posix(); ?>
--FILE--
<?php
use Shm\Table;
require __DIR__ . '/../helpers.inc';

for ($i = 0; $i < 100; $i++) {
    Table::set("stable$i", table_checked_value(9, $i, 100 + $i));
}
mt_srand(7);
for ($round = 0; $round < 8; $round++) {
    $children = [];
    for ($c = 0; $c < 2; $c++) {
        $children[] = table_child_start(function () use ($round, $c) {
            Table::set("alive$round.$c", true);
            for ($i = 0; ; $i++) {
                $k = 'churn' . ($i % 50);
                Table::set($k, table_checked_value($c, $i, ($i * 37) % 5000), $i % 3 ? null : 100, $i % 2 ? 'ns' : null);
                Table::increment('count');
                Table::delete('churn' . (($i + 25) % 50));
                Table::add("add$i", $i);
                Table::get('stable' . ($i % 100));
                if ($i % 100 === 0) {
                    Table::clear('ns');
                }
            }
        });
    }
    foreach ($children as $c => $child) {
        table_wait_until(fn() => Table::exists("alive$round.$c"));
    }
    usleep(mt_rand(1000, 50000));
    foreach ($children as $child) {
        posix_kill($child['pid'], SIGKILL);
    }
    foreach ($children as $child) {
        table_child_wait($child, 0, SIGKILL);
    }
    // every kind of write still works at once
    $ok = Table::set("after$round", $round) && Table::get("after$round") === $round
        && is_int(Table::increment('count')) && Table::delete("after$round")
        && Table::add("after$round", 1) && Table::clear('ns') && Table::setMany(['m' => 1]);
    echo "round $round: ", $ok ? 'ok' : 'FAILED', "\n";
}
$bad = 0;
for ($i = 0; $i < 100; $i++) {
    $bad += !table_checked_ok(Table::get("stable$i"), 9, $i);
}
foreach (Table::fullscan('churn*') as $ns => $key) {
    $v = Table::get($key, $ns);
    $bad += $v !== null && !table_checked_ok($v);
}
$s = Table::stats();
var_dump($bad, is_int($s['lock_repairs']), $s['lock_repairs'] >= 0, $s['entries'] === Table::count() + Table::count('ns'));
?>
--EXPECT--
round 0: ok
round 1: ok
round 2: ok
round 3: ok
round 4: ok
round 5: ok
round 6: ok
round 7: ok
int(0)
bool(true)
bool(true)
bool(true)
