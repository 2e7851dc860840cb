--TEST--
Shm\Table: named segment: four separately started processes increment one counter exactly
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; if (!function_exists('proc_open')) die('skip needs proc_open'); ?>
--FILE--
<?php
require __DIR__ . '/segments.inc';
$dir = seg_dir();
$ps = [];
for ($i = 0; $i < 4; $i++) {
    // Each attaches (the first to come creates the segment), says so, then waits for the start.
    $ps[] = seg_start($dir, 'count', '
        Table::exists("warmup");
        echo "attached\n";
        fgets(STDIN);
        for ($j = 0; $j < 3000; $j++) {
            Table::increment("n");
            Table::increment("k" . ($j % 50), 2);
        }
        echo "ok\n";
    ', [], ['TABLE_TEST_HOOKS' => '1']);
}
foreach ($ps as $p) {
    echo seg_line($p), "\n";
}
foreach ($ps as $p) {
    seg_send($p);
}
foreach ($ps as $p) {
    echo seg_wait($p);
}
echo seg_run($dir, 'count', '
    $sum = 0;
    for ($j = 0; $j < 50; $j++) {
        $sum += Table::get("k$j");
    }
    var_dump(Table::get("n"), $sum, Shm\__table_test_check(), Table::stats()["processes"]);
', [], ['TABLE_TEST_HOOKS' => '1']);
?>
--EXPECT--
attached
attached
attached
attached
ok
ok
ok
ok
int(12000)
int(24000)
string(0) ""
int(1)
