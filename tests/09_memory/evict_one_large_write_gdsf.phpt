--TEST--
Shm\Table: memory: with gdsf, one large set() into a full table of small entries evicts a few dozen entries, not thousands
--INI--
table.memory=64M
table.eviction_policy=gdsf
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/evict_bound.inc';
use Shm\Table;

// Fill with $small-byte values until the first eviction, then write one $big-byte value.
function one_large_write(int $small, int $big): array
{
    Table::clearAll();
    $e0 = Table::stats()['evictions'];
    // In rounds of 1,000, looking at stats() after each (once a write, it took most of the test's time,
    // four minutes under valgrind): the fill stops at the same write as before.
    for ($i = 0; $i === 0 || Table::stats()['evictions'] === $e0;) {
        for ($end = $i + 1000; $i < $end; $i++) {
            Table::set(sprintf('s%07d', $i), str_repeat('s', $small));
        }
    }
    $before = Table::stats();
    $ok = Table::set('big', str_repeat('b', $big));
    $after = Table::stats();
    $S = evict_block('big', $big);
    $per = evict_block('s0000000', $small);
    return [
        'stored' => $ok && Table::get('big') === str_repeat('b', $big),
        'evictions within 2*S/entry + 1' => $after['evictions'] - $before['evictions'] <= intdiv(2 * $S, $per) + 1,
        'bytes within 2*S + one entry' => $after['evicted_bytes'] - $before['evicted_bytes'] <= 2 * $S + $per,
        'one window' => $after['eviction_runs'] - $before['eviction_runs'] === 1,
        'table still full' => $after['entries'] > 0.9 * $before['entries'],
    ];
}

// The issue's measurements: 12,346 to 30,503 evictions for the first, 61-95% of the table for the second.
var_dump(one_large_write(1000, 20 * 1024));
var_dump(one_large_write(100, 100 * 1024));
?>
--EXPECT--
array(5) {
  ["stored"]=>
  bool(true)
  ["evictions within 2*S/entry + 1"]=>
  bool(true)
  ["bytes within 2*S + one entry"]=>
  bool(true)
  ["one window"]=>
  bool(true)
  ["table still full"]=>
  bool(true)
}
array(5) {
  ["stored"]=>
  bool(true)
  ["evictions within 2*S/entry + 1"]=>
  bool(true)
  ["bytes within 2*S + one entry"]=>
  bool(true)
  ["one window"]=>
  bool(true)
  ["table still full"]=>
  bool(true)
}
