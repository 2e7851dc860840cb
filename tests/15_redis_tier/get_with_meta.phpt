--TEST--
Shm\Table: redis tier: getWithMeta() on a tiered namespace: the value, whether this host's copy answered, its length and ttl; created/updated are when this host's copy was made
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; table_skip_unless_posix(); require __DIR__ . '/tier.inc'; tier_skipif(); ?>
--FILE--
<?php
require __DIR__ . '/tier.inc';
$r = tier_redis_start();
$x = tier_agent($r);
var_dump(tier_wait_fresh($x));
$seen = tier_invalidations($x);
tier_do($x, 'return Shm\Table::set("k", ["a" => 1], 100, "shared");');
var_dump(tier_wait_invalidations($x, $seen));
// From Redis (no copy yet): not cached; created and updated are the time of the read.
$m = tier_do($x, '$t = time(); [$v, $m] = Shm\Table::getWithMeta("k", "shared"); return [$v, $m, $t];');
[$v, $meta, $t] = $m;
var_dump($v, $meta['cached'], $meta['length'] > 0, $meta['ttl'] > 90 && $meta['ttl'] <= 100, $meta['created'] >= $t, $meta['updated'] === $meta['created']);
// Once the L1 holds a copy (and is fresh): cached, with the copy's times, which do not move.
$c = tier_do_fresh($x, 'Shm\Table::get("k", "shared"); $a = Shm\Table::getWithMeta("k", "shared"); $b = Shm\Table::getWithMeta("k", "shared"); return [$a, $b];');
[[$va, $ma], [$vb, $mb]] = $c;
var_dump($va === $v, $mb['cached'], $mb['length'] === $meta['length'], $mb['ttl'] > 90 && $mb['ttl'] <= 100, $mb['created'] === $ma['created'], $mb['created'] >= $t);
// Missing: false, as without Redis.
var_dump(tier_do($x, 'return Shm\Table::getWithMeta("nope", "shared");'));
seg_wait($x);
?>
--EXPECT--
bool(true)
bool(true)
array(1) {
  ["a"]=>
  int(1)
}
bool(false)
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
bool(false)
