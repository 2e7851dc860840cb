--TEST--
Shm\Table: redis tier: two hosts, one Redis: a write on A is seen by B, increments are exact, add() has one winner
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; table_skip_unless_posix(); require __DIR__ . '/tier.inc'; tier_skipif(); ?>
--FILE--
<?php
require __DIR__ . '/tier.inc';
$r = tier_redis_start();
// The hosts reach Redis over TCP (loopback), as hosts do.
$tcp = ['table.redis' => "tcp://127.0.0.1:{$r['port']}"];
$a = tier_agent($r, $tcp);
$b = tier_agent($r, $tcp);
var_dump(tier_wait_fresh($a), tier_wait_fresh($b));

// A write on A is seen by B, also when B held the old value in its L1.
var_dump(tier_do($b, 'return Shm\Table::get("k", "shared");'));
$seen = tier_invalidations($b);
tier_do($a, 'return Shm\Table::set("k", "v1", null, "shared");');
var_dump(table_wait_until(fn () => tier_do($b, 'return Shm\Table::get("k", "shared");') === 'v1'));
// B may have filled v1 before A's invalidation reached it, and that copy is dropped when it does: wait
// for the invalidation before counting hits.
var_dump(tier_wait_invalidations($b, $seen));
$hits = tier_do_fresh($b, 'Shm\Table::get("k", "shared"); $h = Shm\Table::stats()["hits"]; Shm\Table::get("k", "shared"); return Shm\Table::stats()["hits"] - $h;');
echo "B's second read of k is an L1 hit: ", var_export($hits === 1, true), "\n";
tier_do($a, 'return Shm\Table::set("k", "v2", null, "shared");');
var_dump(table_wait_until(fn () => tier_do($b, 'return Shm\Table::get("k", "shared");') === 'v2'));
var_dump(tier_do($b, 'return Shm\Table::stats()["redis"]["invalidations"] > 0;'));

// Concurrent increments from both hosts are exact.
$code = 'for ($i = 0; $i < 2000; $i++) { Shm\Table::increment("ctr", 1, null, "shared"); } return Shm\Table::get("ctr", "shared");';
tier_send($a, $code);
tier_send($b, $code);
tier_answer($a);
tier_answer($b);
// Each host may serve its copy until the other's last invalidations arrive: wait for them.
var_dump(table_wait_until(fn () => tier_do($a, 'return Shm\Table::get("ctr", "shared");') === 4000
    && tier_do($b, 'return Shm\Table::get("ctr", "shared");') === 4000));

// add(): exactly one winner per key across the hosts.
$code = '$w = []; for ($i = 0; $i < 500; $i++) { if (Shm\Table::add("once$i", getmypid(), null, "shared")) { $w[] = $i; } } return $w;';
tier_send($a, $code);
tier_send($b, $code);
$wa = tier_answer($a)['r'];
$wb = tier_answer($b)['r'];
echo "add winners: ", count($wa) + count($wb), ", both won: ", count(array_intersect($wa, $wb)), "\n";

// remember(): one computation across the hosts; the other host waits for its value.
$code = '$n = 0; $v = Shm\Table::remember("rem", function () use (&$n) { $n++; usleep(300000); return "computed by " . getmypid(); }, null, "shared"); return [$v, $n];';
tier_send($a, $code);
tier_send($b, $code);
[$va, $na] = tier_answer($a)['r'];
[$vb, $nb] = tier_answer($b)['r'];
echo "remember computed: ", $na + $nb, " time(s), the same value on both hosts: ", var_export($va === $vb, true), "\n";

// A delete on A reaches B's L1 too.
tier_do($b, 'return Shm\Table::get("k", "shared");');
tier_do($a, 'return Shm\Table::delete("k", "shared");');
var_dump(table_wait_until(fn () => tier_do($b, 'return Shm\Table::get("k", "shared");') === null));
seg_wait($a);
seg_wait($b);
?>
--EXPECT--
bool(true)
bool(true)
NULL
bool(true)
bool(true)
B's second read of k is an L1 hit: true
bool(true)
bool(true)
bool(true)
add winners: 500, both won: 0
remember computed: 1 time(s), the same value on both hosts: true
bool(true)
