--TEST--
Shm\Table: named segment: a process mapped elsewhere and without a reader slot copies images out under the lock, relocated
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; if (!function_exists('proc_open')) die('skip needs proc_open'); ?>
--FILE--
<?php
require __DIR__ . '/segments.inc';
$dir = seg_dir();
$value = 'function v() { return ["list" => [1, 2.5, "three", [true, null]], "map" => ["a" => str_repeat("x", 40)]]; }';
// The segment has one reader slot (a test setting at creation), and the creator keeps it.
$a = seg_start($dir, 'one', $value . 'Table::set("a", v()); echo "ready\n"; fgets(STDIN);', ['table.zero_copy' => '1'],
    ['TABLE_TEST_HOOKS' => '1', 'TABLE_TEST_SLOTS' => '1']);
echo seg_line($a), "\n";
echo seg_run($dir, 'one', $value . '
    var_dump(Table::get("a") === v(), Table::getMany(["a"]) === ["a" => v()]);
    $s = Table::stats();
    var_dump($s["segment_same_base"], $s["slots_total"], $s["slots_used"]);',
    ['table.zero_copy' => '1'], ['TABLE_TEST_HOOKS' => '1', 'TABLE_TEST_SEGMENT_MOVE' => '1']);
seg_send($a);
echo seg_wait($a);
?>
--EXPECT--
ready
bool(true)
bool(true)
bool(false)
int(1)
int(1)
