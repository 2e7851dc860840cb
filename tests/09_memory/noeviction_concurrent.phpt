--TEST--
Shm\Table: memory: 4 workers filling a noeviction table: every set that returned true stays, intact
--INI--
table.memory=2M
table.eviction_policy=noeviction
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; table_skip_unless_pcntl(); ?>
--FILE--
<?php
use Shm\Table;
require __DIR__ . '/../helpers.inc';

$results = table_fork(4, function (int $w) {
    mt_srand($w);
    $stored = [];
    $refused = 0;
    for ($i = 0; $i < 1500; $i++) {
        if (Table::set("w$w:$i", table_checked_value($w, $i, mt_rand(200, 2000)))) {
            $stored[] = $i;
        } else {
            $refused++;
        }
    }
    return [$stored, $refused];
});
$missing = $bad = $total = $refused = 0;
foreach ($results as $w => [$stored, $r]) {
    $refused += $r;
    foreach ($stored as $i) {
        $total++;
        $v = Table::get("w$w:$i");
        if ($v === null) {
            $missing++;
        } elseif (!table_checked_ok($v, $w, $i)) {
            $bad++;
        }
    }
}
$s = Table::stats();
var_dump($missing, $bad, $total === Table::count(), $refused > 0, $s['oom'] >= $refused, $s['evictions']);
?>
--EXPECT--
int(0)
int(0)
bool(true)
bool(true)
bool(true)
int(0)
