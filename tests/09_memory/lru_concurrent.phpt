--TEST--
Shm\Table: memory: 4 workers writing far past capacity with lru: every set succeeds and nothing read is torn
--INI--
table.memory=2M
table.eviction_policy=lru
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; table_skip_unless_pcntl(); table_skip_if_valgrind('a stress test, minutes long'); ?>
--FILE--
<?php
use Shm\Table;
require __DIR__ . '/../helpers.inc';

$results = table_fork(4, function (int $w) {
    mt_srand($w);
    $failed = $bad = 0;
    for ($i = 0; $i < 5000; $i++) {
        $failed += !Table::set("w$w:$i", table_checked_value($w, $i, mt_rand(500, 3000)), null, $i % 2 ? 'odd' : null);
        $ow = mt_rand(0, 3);
        $oi = mt_rand(0, $i);
        $v = Table::get("w$ow:$oi", $oi % 2 ? 'odd' : null);
        $bad += $v !== null && !table_checked_ok($v, $ow, $oi);
    }
    return [$failed, $bad];
});
var_dump($results);
$left = $bad = 0;
foreach (Table::fullscan() as $ns => $key) {
    $left++;
    [$w, $i] = sscanf($key, 'w%d:%d');
    $bad += !table_checked_ok(Table::get($key, $ns), $w, $i);
}
$s = Table::stats();
var_dump($bad, $left > 100, $left < 20000, $s['evictions'] > 0, $s['oom'], $s['entries'] === $left);
?>
--EXPECT--
array(4) {
  [0]=>
  array(2) {
    [0]=>
    int(0)
    [1]=>
    int(0)
  }
  [1]=>
  array(2) {
    [0]=>
    int(0)
    [1]=>
    int(0)
  }
  [2]=>
  array(2) {
    [0]=>
    int(0)
    [1]=>
    int(0)
  }
  [3]=>
  array(2) {
    [0]=>
    int(0)
    [1]=>
    int(0)
  }
}
int(0)
bool(true)
bool(true)
bool(true)
int(0)
bool(true)
