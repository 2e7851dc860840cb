--TEST--
Shm\Table: redis tier: every call on a tiered namespace goes through Redis, values round-trip identical, other namespaces stay local
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; table_skip_unless_posix(); require __DIR__ . '/tier.inc'; tier_skipif(); ?>
--FILE--
<?php
require __DIR__ . '/tier.inc';
$r = tier_redis_start();

echo tier_run($r, <<<'PHP'
$ns = 'shared';
$values = [1, -7, PHP_INT_MAX, PHP_INT_MIN, 1.5, -0.0, "text", "", "123", "0x1A", true, false, null,
    [1, 2, 3], ['a' => ['b' => 'c']], new ArrayObject([1, 2])];
foreach ($values as $i => $v) {
    var_dump(Table::set("v$i", $v, null, $ns));
}
foreach ($values as $i => $v) {
    $back = Table::get("v$i", $ns);
    echo "v$i ", is_object($v) ? ($back == $v ? 'equal' : 'DIFFERENT') : ($back === $v ? 'identical' : 'DIFFERENT ' . var_export($back, true)), "\n";
}
var_dump(Table::get('missing', $ns));
var_dump(Table::add('once', 'a', null, $ns), Table::add('once', 'b', null, $ns), Table::get('once', $ns));
var_dump(Table::increment('n', 5, null, $ns), Table::decrement('n', 2, null, $ns), Table::increment('n', 1, null, $ns));
try { Table::increment('v6', 1, null, $ns); } catch (Shm\TableException $e) { echo get_class($e), ": ", $e->getMessage(), "\n"; }
try { Table::increment('max', 1, null, $ns); Table::set('max', PHP_INT_MAX, null, $ns); Table::increment('max', 1, null, $ns); } catch (Shm\TableException $e) { echo "overflow: ", $e->getMessage(), "\n"; }
var_dump(Table::get('max', $ns) === PHP_INT_MAX);
var_dump(Table::cas('once', 'b', 'c', $ns), Table::cas('once', 'a', 'c', $ns), Table::get('once', $ns));
var_dump(Table::deleteIf('once', 'x', $ns), Table::deleteIf('once', 'c', $ns), Table::exists('once', $ns));
var_dump(Table::set('t', 'x', 100, $ns), Table::ttl('t', $ns), Table::touch('t', 0, $ns), Table::ttl('t', $ns));
var_dump(Table::touch('nope', 5, $ns), Table::ttl('nope', $ns));
var_dump(Table::setMany(['m1' => 1, 'm2' => 'two', 3 => [3]], 60, $ns, $failed), $failed);
var_dump(Table::getMany(['m1', 'm2', 3, 'none'], $ns));
var_dump(Table::deleteMany(['m1', 'm2', 'none'], $ns), Table::exists('m1', $ns), Table::exists(3, $ns));
$calls = 0;
var_dump(Table::remember('r', function () use (&$calls) { $calls++; return ['computed']; }, 60, $ns));
var_dump(Table::remember('r', function () use (&$calls) { $calls++; return ['again']; }, 60, $ns), $calls);
var_dump(Table::delete('r', $ns), Table::delete('r', $ns));
// getWithMeta(): the value and what this host knows of it (tests/15_redis_tier/get_with_meta.phpt says more).
[$v, $m] = Table::getWithMeta('t', $ns);
echo "getWithMeta: ", var_export($v, true), ' ', implode(',', array_keys($m)), ' ', $m['length'], ' ', $m['ttl'], "\n";
var_dump(Table::getWithMeta('missing', $ns));
// Not tiered: local only.
var_dump(Table::set('local', 'here', null, 'other'), Table::get('local', 'other'));
var_dump(Table::clear($ns), Table::get('v0', $ns));
Table::set('n2', 42, null, $ns);
PHP, ['table.redis_namespaces' => 'shared']);

// What Redis holds: integers as decimal text, the rest behind a NUL marker; nothing of 'other'.
echo tier_cli($r, 'GET', 'table:6:shared:n2'), "\n";
echo tier_cli($r, 'KEYS', '*other*') === '' ? "other: not in Redis\n" : "other: IN REDIS\n";
echo tier_cli($r, 'DBSIZE'), "\n";
?>
--EXPECTF--
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
v0 identical
v1 identical
v2 identical
v3 identical
v4 identical
v5 identical
v6 identical
v7 identical
v8 identical
v9 identical
v10 identical
v11 identical
v12 identical
v13 identical
v14 identical
v15 equal
NULL
bool(true)
bool(false)
string(1) "a"
int(5)
int(3)
int(4)
Shm\TableException: %s not an integer
overflow: %s
bool(true)
bool(false)
bool(true)
string(1) "c"
bool(false)
bool(true)
bool(false)
bool(true)
int(100)
bool(true)
bool(false)
bool(false)
bool(false)
bool(true)
array(0) {
}
array(3) {
  ["m1"]=>
  int(1)
  ["m2"]=>
  string(3) "two"
  [3]=>
  array(1) {
    [0]=>
    int(3)
  }
}
int(2)
bool(false)
bool(true)
array(1) {
  [0]=>
  string(8) "computed"
}
array(1) {
  [0]=>
  string(8) "computed"
}
int(1)
bool(true)
bool(false)
getWithMeta: 'x' cached,length,ttl,created,updated 1 -1
bool(false)
bool(true)
string(4) "here"
bool(true)
NULL
42
other: not in Redis
1
