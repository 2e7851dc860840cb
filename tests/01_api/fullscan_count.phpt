--TEST--
Shm\Table: fullscan: $count is only a batch-size hint; every key is yielded exactly once
--INI--
table.memory=2M
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

for ($i = 0; $i < 1000; $i++) {
    Table::set("k$i", $i, null, $i % 2 ? 'odd' : null);
}
foreach ([0, 1, 7, 100, 5000, PHP_INT_MAX] as $count) {
    $seen = [];
    $dups = 0;
    foreach (Table::fullscan(null, $count) as $ns => $key) {
        $id = ($ns ?? '') . '/' . $key;
        if (isset($seen[$id])) {
            $dups++;
        }
        $seen[$id] = true;
    }
    $ok = count($seen) === 1000;
    for ($i = 0; $i < 1000; $i++) {
        $ok = $ok && isset($seen[($i % 2 ? 'odd' : '') . "/k$i"]);
    }
    echo "count=$count: ", count($seen), " keys, $dups duplicates, ", $ok ? 'all present' : 'MISSING', "\n";
}
?>
--EXPECT--
count=0: 1000 keys, 0 duplicates, all present
count=1: 1000 keys, 0 duplicates, all present
count=7: 1000 keys, 0 duplicates, all present
count=100: 1000 keys, 0 duplicates, all present
count=5000: 1000 keys, 0 duplicates, all present
count=9223372036854775807: 1000 keys, 0 duplicates, all present
