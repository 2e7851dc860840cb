--TEST--
Shm\Table: multiprocess: clearing a namespace while others read it never yields a torn value
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; table_skip_unless_pcntl(); ?>
--FILE--
<?php
use Shm\Table;
require __DIR__ . '/../helpers.inc';

Table::set('untouched', 'still here');
$results = table_fork(4, function (int $w) {
    $bad = 0;
    if ($w === 0) {
        for ($round = 0; $round < 200; $round++) {
            $batch = [];
            for ($i = 0; $i < 50; $i++) {
                $batch["k$i"] = table_checked_value(0, $i, 200 + $i * 20);
            }
            Table::setMany($batch, null, 'volatile');
            if ($round % 2) {
                Table::clear('volatile');
            } else {
                Table::deleteMany(array_keys($batch), 'volatile');
            }
        }
        Table::set('writer done', true);
        return $bad;
    }
    $loops = 0;
    while (!Table::get('writer done') && $loops++ < 1000000) {
        $i = mt_rand(0, 49);
        $v = Table::get("k$i", 'volatile');
        if ($v !== null && !table_checked_ok($v, 0, $i)) {
            $bad++;
        }
        foreach (Table::getMany(['k1', 'k2'], 'volatile') as $v) {
            $bad += !table_checked_ok($v, 0);
        }
        if (Table::get('untouched') !== 'still here') {
            $bad++;
        }
    }
    return $bad;
});
var_dump(array_sum($results), Table::get('untouched'), Table::count('volatile'));
?>
--EXPECT--
int(0)
string(10) "still here"
int(0)
