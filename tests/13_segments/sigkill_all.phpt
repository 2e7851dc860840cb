--TEST--
Shm\Table: named segment: every process that had it mapped is SIGKILLed mid-work, five times over; each time the next one attaches to a consistent table
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; if (!function_exists('proc_open')) die('skip needs proc_open'); ?>
--FILE--
<?php
require __DIR__ . '/segments.inc';
$dir = seg_dir();
$hooks = ['TABLE_TEST_HOOKS' => '1'];
$worker = '
    $id = (int) $argv[0];
    for ($i = 0; ; $i++) {
        Table::increment("n");
        Table::set("w$id-" . ($i % 200), str_repeat(chr(65 + $i % 26), 100 + $i % 700));
        if ($i % 3 == 0) { Table::delete("w$id-" . (($i * 7) % 200)); }
        Table::set("arr$id", ["i" => $i, "s" => str_repeat("z", $i % 300)], null, "ns" . ($i % 4));
        Table::get("w" . (($id + 1) % 3) . "-" . ($i % 200));
        Table::cas("c", Table::get("c"), $i);
        if ($i == 300) { echo "ready\n"; }
    }';
echo seg_run($dir, 'crash', 'Table::set("keep", "me"); Table::set("c", 0);', [], $hooks);
for ($round = 0; $round < 5; $round++) {
    $ps = [];
    for ($w = 0; $w < 3; $w++) {
        $ps[] = seg_start($dir, 'crash', str_replace('(int) $argv[0]', (string) $w, $worker), [], $hooks);
    }
    foreach ($ps as $p) {
        if (seg_line($p) !== 'ready') {
            echo "a worker did not start: ", seg_wait($p), "\n";
        }
    }
    foreach ($ps as $p) {
        seg_kill($p);
    }
    echo seg_run($dir, 'crash', '
        $s = Table::stats();
        $check = Shm\__table_test_check();
        $ok = 0;
        for ($i = 0; $i < 300; $i++) { $ok += Table::set("after$i", str_repeat("q", 500)) && Table::get("after$i") === str_repeat("q", 500); }
        printf("round %d: processes=%d check=%s get=%s n>0=%s writes=%d check=%s\n", ' . $round . ', $s["processes"],
            $check === "" ? "clean" : $check, Table::get("keep"), var_export(Table::get("n") > 0, true), $ok,
            Shm\__table_test_check() === "" ? "clean" : "bad");
    ', [], $hooks);
}
?>
--EXPECT--
round 0: processes=1 check=clean get=me n>0=true writes=300 check=clean
round 1: processes=1 check=clean get=me n>0=true writes=300 check=clean
round 2: processes=1 check=clean get=me n>0=true writes=300 check=clean
round 3: processes=1 check=clean get=me n>0=true writes=300 check=clean
round 4: processes=1 check=clean get=me n>0=true writes=300 check=clean
