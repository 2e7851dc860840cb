--TEST--
Shm\Table: zero-copy: past table.zero_copy_budget of retired-but-held memory, a request that isn't pinned yet copies instead
--INI--
table.zero_copy=1
table.zero_copy_budget=50K
table.memory=8M
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; table_skip_unless_pcntl(); ?>
--FILE--
<?php
use Shm\Table;
require __DIR__ . '/../helpers.inc';

$value = ['blob' => str_repeat('b', 100000)];
Table::set('k', $value);
// A holds 'k' zero-copy; once 'k' is replaced, its 100 KB stay retired (held by A's pin): over budget.
$holder = table_child_start(function () {
    $held = Table::get('k');
    Table::set('held', true);
    while (!Table::exists('done')) {
        usleep(1000);
    }
    // A was pinned before the budget was exceeded: it keeps reading without copies.
    $before = Table::stats()['zero_copy_reads'];
    Table::get('k');
    return Table::stats()['zero_copy_reads'] - $before;
}, 0);
table_wait_until(fn() => Table::exists('held'));
Table::set('k', ['blob' => str_repeat('c', 100000)]);
echo "retired over budget: ", Table::stats()['retired_bytes'] > 50 * 1024 ? 'yes' : 'no', "\n";

// B starts reading now: it copies, and is not pinned.
$reader = table_child_start(function () {
    $s = Table::stats();
    $v = Table::get('k');
    $t = Table::stats();
    return [$v['blob'][0], $t['zero_copy_reads'] - $s['zero_copy_reads'], $t['copied_reads'] - $s['copied_reads'], $t['pins']];
}, 1);
var_dump(table_child_wait($reader));
Table::set('done', true);
var_dump(table_child_wait($holder));
?>
--EXPECT--
retired over budget: yes
array(4) {
  [0]=>
  string(1) "c"
  [1]=>
  int(0)
  [2]=>
  int(1)
  [3]=>
  int(1)
}
int(1)
