--TEST--
Shm\Table: memory: with random eviction writes keep succeeding and what's left is intact
--INI--
table.memory=2M
table.eviction_policy=random
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

function value(int $i): string { return str_repeat(chr(65 + $i % 26), 2000) . $i; }
$failed = 0;
for ($i = 0; $i < 5000; $i++) {
    $failed += !Table::set("k$i", value($i));
}
$left = 0;
$bad = 0;
for ($i = 0; $i < 5000; $i++) {
    $v = Table::get("k$i");
    if ($v !== null) {
        $left++;
        $bad += $v !== value($i);
    }
}
$s = Table::stats();
var_dump($failed, $bad, $left > 100, $left < 5000, $left === Table::count(), $s['evictions'] > 0, $s['oom']);
// the newest write is always there
var_dump(Table::get('k4999') === value(4999));
?>
--EXPECT--
int(0)
int(0)
bool(true)
bool(true)
bool(true)
bool(true)
int(0)
bool(true)
