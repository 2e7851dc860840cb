--TEST--
Shm\Table: zero-copy: table.zero_copy_budget bounds the bytes zero-copy readers hold; past it a read copies, an entry held already is shared
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

Table::set('a', ['blob' => str_repeat('a', 30000)]);
Table::set('b', ['blob' => str_repeat('b', 30000)]);
Table::set('huge', ['blob' => str_repeat('h', 100000)]);

function zc_read(string $key): array
{
    $before = Table::stats();
    $v = Table::get($key);
    $after = Table::stats();
    return [$v['blob'][0], $after['zero_copy_reads'] - $before['zero_copy_reads'], $after['copied_reads'] - $before['copied_reads']];
}

// A holds 'a' (30 KB, within the 50 KB budget) until its request ends.
$holder = table_child_start(function () {
    $held = Table::get('a');
    Table::set('held', true);
    while (!Table::exists('done')) {
        usleep(1000);
    }
    return $held['blob'][0];
}, 0);
table_wait_until(fn() => Table::exists('held'));
$s = Table::stats();
echo "held: ", $s['held_entries'], " entry, ", $s['held_bytes'] > 30000 && $s['held_bytes'] <= 50 * 1024 ? 'within budget' : 'WRONG', "\n";

// B: 'b' would take the held bytes past the budget, so it is copied; 'a' is held already: shared.
$reader = table_child_start(fn() => [zc_read('b'), zc_read('a'), zc_read('huge')], 1);
var_dump(table_child_wait($reader));
Table::set('done', true);
var_dump(table_child_wait($holder));
var_dump(Table::stats()['held_entries'], Table::stats()['held_bytes']);
?>
--EXPECT--
held: 1 entry, within budget
array(3) {
  [0]=>
  array(3) {
    [0]=>
    string(1) "b"
    [1]=>
    int(0)
    [2]=>
    int(1)
  }
  [1]=>
  array(3) {
    [0]=>
    string(1) "a"
    [1]=>
    int(1)
    [2]=>
    int(0)
  }
  [2]=>
  array(3) {
    [0]=>
    string(1) "h"
    [1]=>
    int(0)
    [2]=>
    int(1)
  }
}
string(1) "a"
int(0)
int(0)
