--TEST--
Shm\Table: stats: reports every documented key with the documented type
--INI--
table.memory=16M
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

Table::set('a', 1);
Table::set('b', 'two', null, 'ns');
$s = Table::stats();
$types = [
    'hits' => 'int', 'misses' => 'int', 'sets' => 'int', 'deletes' => 'int', 'evictions' => 'int',
    'expirations' => 'int', 'oom' => 'int', 'entries' => 'int', 'memory_used' => 'int', 'memory_free' => 'int',
    'memory_size' => 'int', 'eviction_policy' => 'string', 'serializer' => 'string', 'slots_used' => 'int',
    'slots_total' => 'int', 'retired_bytes' => 'int', 'lock_repairs' => 'int', 'lock_timeouts' => 'int',
    'namespaces' => 'array',
    'buckets' => 'int', 'max_chain' => 'int', 'start_time' => 'int', 'evicted_bytes' => 'int',
    'eviction_runs' => 'int', 'eviction_moves' => 'int', 'compression' => 'string',
];
foreach ($types as $k => $t) {
    if (!array_key_exists($k, $s)) {
        echo "missing: $k\n";
    } elseif (get_debug_type($s[$k]) !== $t) {
        echo "$k: ", get_debug_type($s[$k]), " instead of $t\n";
    }
}
foreach ($types as $k => $t) {
    if ($t === 'int' && $s[$k] < 0) {
        echo "$k is negative\n";
    }
}
var_dump($s['memory_size']);
var_dump($s['eviction_policy'], $s['serializer']);
var_dump($s['entries']);
var_dump($s['memory_used'] > 0, $s['memory_free'] > 0, $s['memory_used'] + $s['memory_free'] <= $s['memory_size']);
var_dump($s['slots_used'] >= 1, $s['slots_total'] >= $s['slots_used'], $s['slots_total'] >= 1000);
var_dump($s['lock_repairs']);
var_dump($s['start_time'] > 0 && $s['start_time'] <= time());
/* 16M: one bucket per 256 bytes; two entries in different namespaces make chains of 1 (or one of 2). */
var_dump($s['buckets'], $s['max_chain'] >= 1 && $s['max_chain'] <= 2);
ksort($s['namespaces']);
var_dump(array_keys($s['namespaces']));
var_dump($s['namespaces']['']['count'], $s['namespaces']['ns']['count']);
var_dump($s['namespaces']['']['memory'] === Table::memory(), $s['namespaces']['ns']['memory'] === Table::memory('ns'));
?>
--EXPECT--
int(16777216)
string(4) "gdsf"
string(3) "php"
int(2)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
int(0)
bool(true)
int(65536)
bool(true)
array(2) {
  [0]=>
  string(0) ""
  [1]=>
  string(2) "ns"
}
int(1)
int(1)
bool(true)
bool(true)
