--TEST--
Shm\Table: multiprocess: children see what the parent wrote before and after they were forked
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; table_skip_unless_pcntl(); ?>
--FILE--
<?php
use Shm\Table;
require __DIR__ . '/../helpers.inc';

Table::set('before', 'written before fork');
$child = table_child_start(function () {
    $before = Table::get('before');
    // wait for the parent's write made after the fork
    $seen = table_wait_until(fn() => Table::get('after') === 'written after fork');
    $o = Table::get('object');
    return [$before, $seen, $o instanceof ArrayObject ? $o->getArrayCopy() : null];
});
Table::set('object', new ArrayObject(['x' => 1]));
Table::set('after', 'written after fork');
var_dump(table_child_wait($child));
?>
--EXPECT--
array(3) {
  [0]=>
  string(19) "written before fork"
  [1]=>
  bool(true)
  [2]=>
  array(1) {
    ["x"]=>
    int(1)
  }
}
