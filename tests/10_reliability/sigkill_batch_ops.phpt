--TEST--
Shm\Table: reliability: a child SIGKILLed in the middle of long setMany/deleteMany/clear/clearAll loops leaves the table consistent and writable
--INI--
table.memory=16M
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; table_skip_unless_pcntl(); table_skip_unless_posix(); ?>
--FILE--
<?php
use Shm\Table;
require __DIR__ . '/../helpers.inc';
require __DIR__ . '/reliability.inc';

mt_srand(11);
$report = [];
for ($round = 0; $round < 12; $round++) {
    $child = table_child_start(function () use ($round) {
        Table::set("running$round", true);
        for ($i = 0; ; $i++) {
            $batch = [];
            for ($j = 0; $j < 300; $j++) {
                $batch["b$j"] = table_checked_value($round, $i * 1000 + $j, ($i * 31 + $j * 17) % 3000);
            }
            Table::setMany($batch, null, $i % 2 ? 'batch' : null);
            Table::setMany($batch, 60, "batch$round");
            Table::deleteMany(array_keys(array_slice($batch, 0, 150)), 'batch');
            if ($i % 3 === 0) {
                Table::clear("batch$round");
            }
            if ($i % 5 === 4) {
                Table::clearAll();
                Table::set("running$round", true);
            }
        }
    });
    table_wait_until(fn() => Table::exists("running$round"));
    usleep(mt_rand(2000, 60000));
    posix_kill($child['pid'], SIGKILL);
    table_child_wait($child, 0, SIGKILL);

    // every value left is intact, the counts agree, and every kind of write works at once
    $bad = 0;
    foreach (Table::fullscan() as $ns => $key) {
        $v = Table::get((string) $key, $ns);
        $bad += str_starts_with((string) $key, "after") ? !is_int($v) : ($v !== true && !table_checked_ok($v));
    }
    $c = rel_consistency();
    $w = Table::setMany(['w1' => 1, 'w2' => [2]], null, 'batch') && Table::deleteMany(['w1', 'w2'], 'batch') === 2
        && Table::clear("batch$round") && Table::set("after$round", $round) && Table::get("after$round") === $round;
    $report[] = "round $round: " . ($bad === 0 && $c === 'consistent' && $w ? 'ok' : "bad $bad, $c, writes " . var_export($w, true));
}
echo implode("\n", $report), "\n";
echo rel_locks_free('parent'), "\n";
echo 'child: ', rel_in_child(fn() => rel_locks_free('child') . ', ' . rel_consistency()), "\n";
$entries = Table::stats()['entries'];
var_dump(Table::clearAll() === $entries, Table::count(), rel_consistency());
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
round 8: ok
round 9: ok
round 10: ok
round 11: ok
locks free
child: locks free, consistent
bool(true)
int(0)
string(10) "consistent"
