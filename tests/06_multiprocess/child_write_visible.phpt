--TEST--
Shm\Table: multiprocess: a forked child's writes and deletes are seen by the parent
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; table_skip_unless_pcntl(); ?>
--FILE--
<?php
use Shm\Table;
require __DIR__ . '/../helpers.inc';

Table::set('to delete', 'parent value');
Table::set('to replace', 'parent value');
$r = table_fork(1, function () {
    Table::set('from child', ['pid' => getmypid(), 'list' => [1, 2, 3]]);
    Table::set('in ns', 'child ns value', null, 'child-ns');
    Table::set('to replace', 'child value');
    Table::delete('to delete');
    Table::increment('counter', 42);
    return getmypid();
});
$v = Table::get('from child');
var_dump($v['pid'] === $r[0], $v['pid'] !== getmypid(), $v['list']);
var_dump(Table::get('in ns', 'child-ns'), Table::get('to replace'), Table::exists('to delete'), Table::get('counter'));
var_dump(Table::count(), Table::namespaces());
?>
--EXPECT--
bool(true)
bool(true)
array(3) {
  [0]=>
  int(1)
  [1]=>
  int(2)
  [2]=>
  int(3)
}
string(14) "child ns value"
string(11) "child value"
bool(false)
int(42)
int(3)
array(1) {
  [0]=>
  string(8) "child-ns"
}
