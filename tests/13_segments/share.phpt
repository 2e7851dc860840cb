--TEST--
Shm\Table: named segment: two separately started processes share one table, both ways, while both run
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; if (!function_exists('proc_open')) die('skip needs proc_open'); ?>
--FILE--
<?php
require __DIR__ . '/segments.inc';
$dir = seg_dir();

$a = seg_start($dir, 'app', '
    Table::set("str", "from a");
    Table::set("arr", ["x" => [1, 2.5, true, null, "y"]]);
    Table::set("n", 41);
    echo "set\n";
    fgets(STDIN);                       // b has written
    var_dump(Table::get("from_b"), Table::stats()["processes"]);
    echo "done\n";
    fgets(STDIN);
');
echo seg_line($a), "\n";
$b = seg_start($dir, 'app', '
    var_dump(Table::get("str"), Table::get("arr") === ["x" => [1, 2.5, true, null, "y"]], Table::increment("n"));
    Table::set("from_b", "hello a");
    $s = Table::stats();
    var_dump($s["segment"], $s["segment_path"] === ini_get("table.segment_dir") . "/php-table.app",
        $s["segment_created"], $s["processes"]);
    echo "written\n";
    fgets(STDIN);
');
while (($l = seg_line($b)) !== 'written') {
    echo $l, "\n";
}
seg_send($a);
while (($l = seg_line($a)) !== 'done') {
    echo $l, "\n";
}
seg_send($b);
seg_send($a);
echo seg_wait($a), seg_wait($b);
echo "after: ", seg_run($dir, 'app', 'var_dump(Table::get("n"), Table::stats()["segment_created"]);');
var_dump(decoct(fileperms("$dir/php-table.app") & 0777));
?>
--EXPECT--
set
string(6) "from a"
bool(true)
int(42)
string(3) "app"
bool(true)
bool(false)
int(2)
string(7) "hello a"
int(2)
after: int(42)
bool(false)
string(3) "600"
