--TEST--
Shm\Table: redis tier: cluster://: two hosts in front of 3 masters (and 3 replicas): keys on every master, a write through A read through B, every master's invalidations reach B, increments from both hosts exact, getMany/setMany/deleteMany/clear across slots
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; table_skip_unless_posix(); require __DIR__ . '/cluster.inc'; cluster_skipif(); ?>
--FILE--
<?php
require __DIR__ . '/cluster.inc';
$env = cluster_setup();
$masters = array_map(fn ($p) => cluster_node_at($env, $p), $env['masters']);
// Two hosts, each a process of its own with a named segment of its own (two machines' tables).
$ini = fn (string $seg) => tier_url_ini($env['url']) + ['table.segment' => $seg, 'table.segment_dir' => $env['dir']];
$a = tier_agent($masters[0], $ini('host-a'));
$b = tier_agent($masters[0], $ini('host-b'));
// Fresh: each host's helper tracks on every master.
var_dump(tier_wait_fresh($a), tier_wait_fresh($b));
$sizes = fn () => array_map('cluster_dbsize', $masters);

// 60 keys through A land on all 3 masters (the tier's key names carry no hash tag: spread by slot).
$n = 60;
var_dump(tier_do($a, 'for ($i = 0; $i < ' . $n . '; $i++) { if (!Shm\Table::set("k$i", "v$i", null, "shared")) return false; } return true;'));
$s = $sizes();
echo 'on every master: ', var_export(min($s) > 0 && array_sum($s) === $n, true), "\n";
// B reads them all (no copy of its own yet: from Redis), and a second read of one is an L1 hit.
$all = 'for ($i = 0, $ok = 0; $i < ' . $n . '; $i++) { $ok += Shm\Table::get("k$i", "shared") === "%s$i"; } return $ok;';
var_dump(tier_do($b, sprintf($all, 'v')));

// A overwrites them all: every master sends B's helper its keys' invalidations (BCAST: whether or not
// B held a copy), so B's count grows by at least $n, and B then reads the new values.
$seen = tier_invalidations($b);
var_dump(tier_do($a, 'for ($i = 0; $i < ' . $n . '; $i++) { if (!Shm\Table::set("k$i", "w$i", null, "shared")) return false; } return true;'));
echo "B's helper heard of every key: ", var_export(tier_wait_invalidations($b, $seen + $n - 1), true), "\n";
var_dump(table_wait_until(fn () => tier_do($b, sprintf($all, 'w')) === $n));
$hits = tier_do_fresh($b, 'Shm\Table::get("k1", "shared"); $h = Shm\Table::stats()["hits"]; Shm\Table::get("k1", "shared"); return Shm\Table::stats()["hits"] - $h;');
echo "B's second read of k1 is an L1 hit: ", var_export($hits === 1, true), "\n";

// Increments from both hosts at once, on counters in different slots: exact.
$code = 'for ($i = 0; $i < 300; $i++) { foreach (["c1", "c2", "c3", "c4"] as $c) { Shm\Table::increment($c, 1, null, "shared"); } } return true;';
tier_send($a, $code);
tier_send($b, $code);
var_dump(tier_answer($a)['r'], tier_answer($b)['r']);
$counters = 'return Shm\Table::getMany(["c1", "c2", "c3", "c4"], "shared");';
$exact = ['c1' => 600, 'c2' => 600, 'c3' => 600, 'c4' => 600];
var_dump(table_wait_until(fn () => tier_do($a, $counters) === $exact && tier_do($b, $counters) === $exact));

// setMany through A across slots (atomic per slot only); getMany through B puts them back in order.
$many = [];
for ($i = 0; $i < 30; $i++) {
    $many["m$i"] = ['i' => $i];
}
var_dump(tier_do($a, 'return Shm\Table::setMany(' . var_export($many, true) . ', null, "shared");'));
$keys = var_export(array_merge(['absent'], array_keys($many)), true);
var_dump(table_wait_until(fn () => tier_do($b, "return Shm\\Table::getMany($keys, 'shared');") === $many));
// deleteMany through A: 10 of them, spread over the masters; B no longer sees them.
var_dump(tier_do($a, 'return Shm\Table::deleteMany(' . var_export(array_slice(array_keys($many), 0, 10), true) . ', "shared");'));
var_dump(table_wait_until(fn () => tier_do($b, "return Shm\\Table::getMany($keys, 'shared');") === array_slice($many, 10)));
// clear() through A empties the namespace on every master; B's copies go too.
var_dump(tier_do($a, 'return Shm\Table::clear("shared");'));
echo 'every master empty: ', var_export(array_sum($sizes()) === 0, true), "\n";
var_dump(table_wait_until(fn () => tier_do($b, "return Shm\\Table::getMany($keys, 'shared');") === []
    && tier_do($b, sprintf($all, 'w')) === 0));

$helpers = [tier_do($a, 'return Shm\Table::stats()["redis"]["helper_pid"];'), tier_do($b, 'return Shm\Table::stats()["redis"]["helper_pid"];')];
echo seg_wait($a), seg_wait($b);
// Each helper leaves within about a second of its table's last user: nothing is left behind.
echo 'helpers gone: ', var_export(table_wait_until(fn () => !array_filter($helpers, fn ($pid) => posix_kill($pid, 0))), true), "\n";
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
on every master: true
int(60)
bool(true)
B's helper heard of every key: true
bool(true)
B's second read of k1 is an L1 hit: true
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
int(10)
bool(true)
bool(true)
every master empty: true
bool(true)
helpers gone: true
