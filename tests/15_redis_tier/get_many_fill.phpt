--TEST--
Shm\Table: redis tier: getMany() fills the L1 with what it read from Redis, and a later write drops those copies
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; table_skip_unless_posix(); require __DIR__ . '/tier.inc'; tier_skipif(); ?>
--FILE--
<?php
require __DIR__ . '/tier.inc';
$r = tier_redis_start();
$a = tier_agent($r);
$b = tier_agent($r);
var_dump(tier_wait_fresh($a), tier_wait_fresh($b));

$seen = tier_invalidations($b);
tier_do($a, 'Shm\Table::setMany(["g1" => "one", "g2" => [2], 3 => 3.5], null, "shared"); return Shm\Table::set("g4", "expires", 100, "shared");');
// B's helper applies the invalidations of A's four writes; a copy filled before one of them arrived
// would be dropped when it did: wait for them before counting hits.
var_dump(tier_wait_invalidations($b, $seen + 3));
$keys = '["g1", "g2", 3, "g4", "none"]';
var_dump(tier_do($b, "return Shm\\Table::getMany($keys, 'shared');"));

// What a getMany reads from Redis goes into B's L1: the same getMany again is four L1 hits and one miss,
// and so is a get() of each key (counted in a run with B's L1 fresh throughout: tier_do_fresh).
var_dump(tier_do_fresh($b, '$c = function () { $s = Shm\Table::stats(); return [$s["hits"], $s["misses"]]; };
    Shm\Table::getMany(' . $keys . ', "shared");
    [$h, $m] = $c(); Shm\Table::getMany(' . $keys . ', "shared");
    [$h2, $m2] = $c(); foreach (' . $keys . ' as $k) { Shm\Table::get($k, "shared"); }
    [$h3, $m3] = $c();
    return ["getMany" => [$h2 - $h, $m2 - $m], "get" => [$h3 - $h2, $m3 - $m2]];'));

// A write on A drops B's copy: B's getMany sees the new value.
tier_do($a, 'return Shm\Table::set("g1", "changed", null, "shared");');
var_dump(table_wait_until(fn () => tier_do($b, "return Shm\\Table::getMany(['g1'], 'shared');") === ['g1' => 'changed']));
seg_wait($a);
seg_wait($b);
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
array(4) {
  ["g1"]=>
  string(3) "one"
  ["g2"]=>
  array(1) {
    [0]=>
    int(2)
  }
  [3]=>
  float(3.5)
  ["g4"]=>
  string(7) "expires"
}
array(2) {
  ["getMany"]=>
  array(2) {
    [0]=>
    int(4)
    [1]=>
    int(1)
  }
  ["get"]=>
  array(2) {
    [0]=>
    int(4)
    [1]=>
    int(1)
  }
}
bool(true)
