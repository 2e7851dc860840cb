--TEST--
Shm\Table: multiprocess: 4 workers x 5,000 increments add up to exactly 20,000, each result unique
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; table_skip_unless_pcntl(); ?>
--FILE--
<?php
use Shm\Table;
require __DIR__ . '/../helpers.inc';

$results = table_fork(4, function (int $w) {
    $seen = [];
    for ($i = 0; $i < 5000; $i++) {
        $seen[] = Table::increment('counter');
        Table::increment('by-worker', 1, null, "w$w");
        Table::decrement('down');
    }
    return $seen;
});
var_dump(Table::get('counter'), Table::get('down'));
for ($w = 0; $w < 4; $w++) {
    echo "w$w: ", Table::get('by-worker', "w$w"), "\n";
}
// every increment returned a distinct value: no two workers ever saw the same result
$all = array_merge(...$results);
sort($all);
var_dump(count($all), $all === range(1, 20000));
// each worker's own results are strictly increasing
$monotonic = true;
foreach ($results as $seen) {
    for ($i = 1; $i < count($seen); $i++) {
        $monotonic = $monotonic && $seen[$i] > $seen[$i - 1];
    }
}
var_dump($monotonic);
?>
--EXPECT--
int(20000)
int(-20000)
w0: 5000
w1: 5000
w2: 5000
w3: 5000
int(20000)
bool(true)
bool(true)
