--TEST--
Shm\Table: memory: with lru every set succeeds, recently read keys survive and old unread ones are evicted
--INI--
table.memory=2M
table.eviction_policy=lru
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

function value(string $k): string { return str_repeat(substr(md5($k), 0, 8), 256) . $k; }   // ~2 KB

$capacity = intdiv(Table::stats()['memory_free'], 2048);
$cold = [];
for ($i = 0; $i < 300; $i++) {
    $cold[] = "cold$i";
}
$hot = [];
for ($i = 0; $i < 10; $i++) {
    $hot[] = "hot$i";
}
$failed = 0;
foreach (array_merge($hot, $cold) as $k) {
    $failed += !Table::set($k, value($k));
}
// the LRU clock ticks every 100 ms: let it move on before and after the hot keys are read
usleep(250000);
foreach ($hot as $k) {
    for ($j = 0; $j < 3; $j++) {
        Table::get($k);
    }
}
usleep(250000);
// write three times the capacity, in rounds; the hot keys stay in use between rounds, and within a round
// whenever the LRU tick moves on: on a loaded machine 60 writes can span several ticks, and keys last
// read that many ticks ago are no longer recent (the sleeps make every round at least one tick, so what
// was written rounds ago is older all the same)
$written = 0;
$hotLost = 0;
$tick = 0;
$readHot = function () use ($hot, &$hotLost, &$tick) {
    $tick = (int) floor(microtime(true) * 10);
    foreach ($hot as $k) {
        if (Table::get($k) !== value($k)) {
            $hotLost++;
        }
    }
};
while ($written < 3 * $capacity) {
    for ($j = 0; $j < 60; $j++, $written++) {
        if ((int) floor(microtime(true) * 10) !== $tick) {
            $readHot();
        }
        $failed += !Table::set("new$written", value("new$written"));
    }
    usleep(110000);
    $readHot();
}
$coldLeft = 0;
foreach ($cold as $k) {
    $v = Table::get($k);
    if ($v !== null) {
        $coldLeft++;
        if ($v !== value($k)) {
            echo "$k corrupt\n";
        }
    }
}
$s = Table::stats();
var_dump($written > 1000, $failed, $hotLost);
var_dump($coldLeft < 30);
var_dump($s['evictions'] > 0, $s['oom'], Table::count() < 310 + $written);
?>
--EXPECT--
bool(true)
int(0)
int(0)
bool(true)
bool(true)
int(0)
bool(true)
