--TEST--
Shm\Table: redis tier: sentinel://: a switch by hand (SENTINEL FAILOVER: the old master lives on, demoted to a replica) is followed by both hosts: writes land on the new master, B reads what A wrote, each helper counts it
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; table_skip_unless_posix(); require __DIR__ . '/sentinel.inc'; sentinel_skipif(); ?>
--FILE--
<?php
require __DIR__ . '/sentinel.inc';
$env = sentinel_setup();
$maxStale = 1000;
$ini = fn (string $seg) => ['table.redis' => '"' . $env['url'] . '"', 'table.redis_on_error' => 'miss',
    'table.redis_timeout' => '500', 'table.redis_max_stale' => (string) $maxStale,
    'table.segment' => $seg, 'table.segment_dir' => $env['dir']];
$a = tier_agent($env['master'], $ini('host-a'));
$b = tier_agent($env['master'], $ini('host-b'));
var_dump(tier_wait_fresh($a), tier_wait_fresh($b));
var_dump(tier_do($a, 'return Shm\Table::set("k", 1, null, "shared");'));
var_dump(table_wait_until(fn () => tier_do($b, 'return Shm\Table::get("k", "shared");') === 1));

$old = $env['master']['port'];
echo sentinel_cli($env['sentinels'][0], 'SENTINEL', 'FAILOVER', SENTINEL_MASTER), "\n";
// Every Sentinel names the replica, and the old master is its replica now.
var_dump(table_wait_until(fn () => array_reduce($env['sentinels'], fn ($ok, $s) => $ok && sentinel_master_port($s) === $env['replica']['port'], true)
    && str_contains(tier_cli($env['master'], 'ROLE'), 'slave'), 120.0));

// A's writes fail (-READONLY: the call is refused, not applied) until one lands on the new master; then
// B reads each value A wrote once max_stale has passed since it was acknowledged.
$problems = [];
$v = 1;
var_dump(table_wait_until(fn () => tier_do($a, 'return Shm\Table::set("k", ' . ++$v . ', null, "shared");') === true, 60.0));
for ($i = 0; $i < 3; $i++) {
    $w = ++$v;
    if (tier_do($a, "return Shm\\Table::set('k', $w, null, 'shared');") !== true) {
        $problems[] = "write $w failed";
        continue;
    }
    usleep(($maxStale + 200) * 1000);
    $got = tier_do($b, 'return Shm\Table::get("k", "shared");');
    if ($got !== $w) {
        $problems[] = 'B read ' . var_export($got, true) . " for $w";
    }
}
echo 'on the new master: ', var_export(tier_cli($env['replica'], 'GET', 'table:6:shared:k') === (string) $v, true), "\n";
foreach ([$a, $b] as $i => $h) {
    $ok = table_wait_until(fn () => tier_do($h, 'Shm\Table::get("__warm", "shared"); $s = Shm\Table::stats()["redis"]; return $s["failovers"] >= 1 && $s["fresh"];'), 60.0);
    echo 'host ', 'ab'[$i], ': failovers >= 1 and fresh: ', var_export($ok, true), "\n";
}
echo $problems ? implode("\n", $problems) . "\n" : "no problems\n";
seg_wait($a);
seg_wait($b);
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
bool(true)
OK
bool(true)
bool(true)
on the new master: true
host a: failovers >= 1 and fresh: true
host b: failovers >= 1 and fresh: true
no problems
