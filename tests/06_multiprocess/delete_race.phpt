--TEST--
Shm\Table: multiprocess: when 4 workers delete the same keys, exactly one delete of each key returns true
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; table_skip_unless_pcntl(); ?>
--FILE--
<?php
use Shm\Table;
require __DIR__ . '/../helpers.inc';

for ($i = 0; $i < 2000; $i++) {
    Table::set("k$i", $i);
}
$results = table_fork(4, function (int $w) {
    $mine = [];
    for ($i = 0; $i < 1000; $i++) {
        if (Table::delete("k$i")) {
            $mine[] = $i;
        }
    }
    $many = Table::deleteMany(array_map(fn($i) => "k$i", range(1000, 1999)));
    return [$mine, $many];
});
$all = array_merge(...array_column($results, 0));
sort($all);
var_dump($all === range(0, 999), array_sum(array_column($results, 1)), Table::count());
?>
--EXPECT--
bool(true)
int(1000)
int(0)
