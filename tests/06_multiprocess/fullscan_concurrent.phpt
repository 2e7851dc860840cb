--TEST--
Shm\Table: multiprocess: fullscan() and keys() see every stable key while another worker churns the table
--INI--
table.memory=16M
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; table_skip_unless_pcntl(); ?>
--FILE--
<?php
use Shm\Table;
require __DIR__ . '/../helpers.inc';

for ($i = 0; $i < 3000; $i++) {
    Table::set("stable$i", $i, null, $i % 3 ? null : 'ns');
}
$churn = table_child_start(function () {
    for ($i = 0; !Table::get('stop') && $i < 2000000; $i++) {
        Table::set('churn' . ($i % 5000), str_repeat('c', $i % 500), null, $i % 7 ? null : 'ns' . ($i % 50));
        Table::delete('churn' . (($i + 2500) % 5000));
    }
    return true;
});
$missing = 0;
for ($round = 0; $round < 5; $round++) {
    $seen = [];
    foreach (Table::fullscan('stable*', 7) as $ns => $key) {
        $seen[($ns ?? '') . '/' . $key] = true;
    }
    $keys = array_flip(Table::keys('stable*'));
    for ($i = 0; $i < 3000; $i++) {
        $missing += !isset($seen[($i % 3 ? '' : 'ns') . "/stable$i"]);
        $missing += $i % 3 && !isset($keys["stable$i"]);
    }
}
Table::set('stop', true);
table_child_wait($churn);
var_dump($missing);
?>
--EXPECT--
int(0)
