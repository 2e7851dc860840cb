--TEST--
Shm\Table: named segment: zero-copy reads where it lies at its creator's address, copied (relocated) reads where it does not
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; if (!function_exists('proc_open')) die('skip needs proc_open'); ?>
--FILE--
<?php
require __DIR__ . '/segments.inc';
$dir = seg_dir();
$zc = ['table.zero_copy' => '1'];
$moved = ['TABLE_TEST_HOOKS' => '1', 'TABLE_TEST_SEGMENT_MOVE' => '1'];
$value = 'function v($tag) { return ["tag" => $tag, "list" => [1, 2.5, "three", [true, null]], "map" => ["a" => str_repeat("x", 40)]]; }';
$report = '
    function report($what, $before) {
        $s = Table::stats();
        printf("%s: same_base=%s zero_copy=%s zero_copy_reads+%d\n", $what, var_export($s["segment_same_base"], true),
            var_export($s["zero_copy"], true), $s["zero_copy_reads"] - $before);
    }
    $before = Table::stats()["zero_copy_reads"];';

echo seg_run($dir, 'zc', $value . 'Table::set("a", v("a")); echo Table::stats()["segment_same_base"] ? "creator\n" : "?\n";', $zc);
// At the creator's address: images are handed out as they are.
echo seg_run($dir, 'zc', $value . $report . '
    var_dump(Table::get("a") === v("a"), Table::get("a") === v("a"));
    report("same base", $before);', $zc);
// Mapped elsewhere: the images' pointers are the creator's, so they are copied out and relocated;
// arrays written here are stored compactly (their images would hold this process's addresses).
echo seg_run($dir, 'zc', $value . $report . '
    var_dump(Table::get("a") === v("a"), Table::getMany(["a"]) === ["a" => v("a")]);
    var_dump(Table::cas("a", v("a"), v("a2")), Table::get("a") === v("a2"));
    Table::set("b", v("b"));
    var_dump(Table::get("b") === v("b"));
    report("moved", $before);', $zc, $moved);
// Back at the creator's address: what the moved process wrote reads back whole.
echo seg_run($dir, 'zc', $value . $report . '
    var_dump(Table::get("a") === v("a2"), Table::get("b") === v("b"));
    Table::set("c", v("c"));
    var_dump(Table::get("c") === v("c"));
    report("same base again", $before);', $zc);
?>
--EXPECT--
creator
bool(true)
bool(true)
same base: same_base=true zero_copy=true zero_copy_reads+2
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
moved: same_base=false zero_copy=false zero_copy_reads+0
bool(true)
bool(true)
bool(true)
same base again: same_base=true zero_copy=true zero_copy_reads+1
