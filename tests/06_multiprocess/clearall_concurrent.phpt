--TEST--
Shm\Table: multiprocess: clearAll() racing with writers and readers leaves consistent counts and no torn values
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; table_skip_unless_pcntl(); ?>
--FILE--
<?php
use Shm\Table;
require __DIR__ . '/../helpers.inc';

$results = table_fork(4, function (int $w) {
    mt_srand($w);
    $bad = 0;
    for ($i = 0; $i < 3000; $i++) {
        if ($w === 0) {
            if ($i % 100 === 0) {
                Table::clearAll();
            }
            Table::increment('n', 1, null, 'ns' . ($i % 5));
            continue;
        }
        Table::set("w$w:" . ($i % 300), table_checked_value($w, $i % 300, mt_rand(10, 3000)), null, 'ns' . ($i % 5));
        $v = Table::get('w' . mt_rand(1, 3) . ':' . mt_rand(0, 299), 'ns' . mt_rand(0, 4));
        $bad += $v !== null && !table_checked_ok($v);
        $n = Table::get('n', 'ns' . mt_rand(0, 4));
        $bad += $n !== null && !is_int($n);
    }
    return $bad;
});
var_dump(array_sum($results));
$s = Table::stats();
$sum = 0;
foreach ($s['namespaces'] as $name => $info) {
    $sum += $info['count'];
    if ($info['count'] !== Table::count($name === '' ? null : $name)) {
        echo "count mismatch in $name\n";
    }
}
$scanned = iterator_count(Table::fullscan());
var_dump($s['entries'] === $sum, $sum === $scanned);
var_dump(Table::clearAll() === $scanned, Table::count('ns1'), Table::stats()['entries']);
?>
--EXPECT--
int(0)
bool(true)
bool(true)
bool(true)
int(0)
int(0)
