--TEST--
Shm\Table: named segment: the data survives every process that used it, and namespaces with it
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; if (!function_exists('proc_open')) die('skip needs proc_open'); ?>
--FILE--
<?php
require __DIR__ . '/segments.inc';
$dir = seg_dir();
echo seg_run($dir, 'keep', '
    Table::set("first", "generation 1");
    Table::set("ns-key", [1, 2, 3], null, "jobs");
    Table::set("short", "gone soon", 1);
    echo Table::stats()["segment_created"] ? "created\n" : "attached\n";
');
// Every process has ended: nothing maps the segment any more.
$b = seg_start($dir, 'keep', 'echo json_encode([Table::get("first"), Table::get("ns-key", "jobs")]), "\n"; Table::set("second", "generation 2"); echo "b\n"; fgets(STDIN);');
$c = seg_start($dir, 'keep', 'echo Table::stats()["segment_created"] ? "created\n" : "attached\n"; Table::increment("restarts"); fgets(STDIN);');
echo seg_line($b), "\n", seg_line($b), "\n", seg_line($c), "\n";
seg_send($b);
seg_send($c);
echo seg_wait($b), seg_wait($c);
echo seg_run($dir, 'keep', '
    var_dump(Table::get("first"), Table::get("second"), Table::get("restarts"), Table::count("jobs"),
        Table::stats()["processes"]);
');
?>
--EXPECT--
created
["generation 1",[1,2,3]]
b
attached
string(12) "generation 1"
string(12) "generation 2"
int(1)
int(1)
int(1)
