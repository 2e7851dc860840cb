--TEST--
Shm\Table: a process that finds every reader slot taken still reads, copying under the stripe lock (zero-copy arrays included)
--ENV--
TABLE_TEST_HOOKS=1
TABLE_TEST_SLOTS=2
--INI--
table.zero_copy=1
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; table_skip_unless_pcntl(); ?>
--FILE--
<?php
use Shm\Table;
require __DIR__ . '/../helpers.inc';

$array = ['name' => 'x', 'list' => [1, 2.5, null, true, 'five'], 'nested' => ['a' => ['b' => str_repeat('c', 3000)]]];
Table::set('str', 'hello');
Table::set('int', 42);
Table::set('arr', $array);
Table::set('obj', new ArrayObject([1, 2]));
echo "slots: ", Table::stats()['slots_total'], "\n";   // this process has slot 1

// A takes the last slot and keeps it.
$a = table_child_start(function () {
    Table::get('str');
    Table::set('a_ready', true);
    while (!Table::exists('done')) {
        usleep(1000);
    }
    return true;
}, 0);
table_wait_until(fn() => Table::exists('a_ready'));

// B finds no free slot: its reads still work.
$b = table_child_start(function () use ($array) {
    $out = [];
    $out[] = Table::get('str');
    $out[] = Table::get('int');
    $out[] = Table::get('arr') === $array;
    $out[] = Table::get('obj') == new ArrayObject([1, 2]);
    $out[] = Table::get('missing');
    $out[] = Table::exists('arr');
    $out[] = Table::getWithMeta('str')[0];
    $out[] = Table::getMany(['str', 'missing', 'int']);
    try {
        Table::set('b', 1);
        $out[] = 'set worked';
    } catch (Shm\TableException $e) {
        $out[] = $e->getMessage();
    }
    return $out;
}, 1);
var_dump(table_child_wait($b));
Table::set('done', true);
var_dump(table_child_wait($a));
?>
--EXPECT--
slots: 2
array(9) {
  [0]=>
  string(5) "hello"
  [1]=>
  int(42)
  [2]=>
  bool(true)
  [3]=>
  bool(true)
  [4]=>
  NULL
  [5]=>
  bool(true)
  [6]=>
  string(5) "hello"
  [7]=>
  array(2) {
    ["str"]=>
    string(5) "hello"
    ["int"]=>
    int(42)
  }
  [8]=>
  string(82) "Shm\Table::set(): no free reader slot: every reader slot is held by a live process"
}
bool(true)
