--TEST--
Shm\Table: redis tier: table.redis_on_error=miss: a failed read is a miss (never an L1 copy that is not fresh), a failed write returns false and leaves no copy on this host; each failure is counted
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; table_skip_unless_posix(); require __DIR__ . '/tier.inc'; tier_skipif(); ?>
--FILE--
<?php
require __DIR__ . '/tier.inc';
// An invalid value: the table is unavailable, as with the other table.redis_* settings.
$p = proc_open(tier_argv('try { Table::get("k"); echo "available\n"; } catch (Shm\TableException $e) { echo $e->getMessage(), "\n"; }',
    ['table.redis' => 'tcp://127.0.0.1', 'table.redis_namespaces' => 'a', 'table.redis_on_error' => 'ignore', 'table.memory' => '8M']),
    [1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
echo stream_get_contents($pipes[1]);
proc_close($p);

// Redis unreachable from the start: every call answers without an exception; each failure is an error.
echo tier_run(['sock' => '/nonexistent/redis.sock'], <<<'PHP'
$ns = 'shared';
$e0 = Table::stats()['redis']['errors'];
$calls = 0;
var_dump(Table::get('k', $ns), Table::exists('k', $ns), Table::getMany(['a', 'b'], $ns), Table::ttl('k', $ns));
var_dump(Table::set('k', 1, null, $ns), Table::add('k', 1, null, $ns), Table::delete('k', $ns), Table::increment('n', 1, null, $ns));
var_dump(Table::cas('k', 1, 2, $ns), Table::deleteIf('k', 1, $ns), Table::touch('k', 5, $ns));
var_dump(Table::setMany(['a' => 1], null, $ns), Table::deleteMany(['a', 'b'], $ns), Table::clear($ns));
var_dump(Table::remember('r', function () use (&$calls) { $calls++; return 'computed'; }, null, $ns), $calls);
$s = Table::stats()['redis'];
echo 'errors: ', $s['errors'] - $e0, ', misses: ', $s['misses'], ', L1 entries: ', Table::count($ns), "\n";
var_dump(Table::set('local', 'here', null, 'other'), Table::get('local', 'other'));
PHP, ['table.redis_namespaces' => 'shared', 'table.redis_on_error' => 'miss']);

// With a server: x holds copies of k and k2 in its L1. Its helper is stopped (so nothing but x itself
// drops a copy), then Redis is killed.
$r = tier_redis_start();
// A long table.redis_timeout: the stopped helper is not replaced (as a hung one) during the test. Nothing
// here waits for it: a killed Redis refuses at once.
$x = tier_agent($r, ['table.redis_on_error' => 'miss', 'table.redis_timeout' => '10000']);
var_dump(tier_wait_fresh($x));
$seen = tier_invalidations($x);
tier_do($x, 'return Shm\Table::setMany(["k" => "v1", "k2" => "v2"], null, "shared");');
var_dump(tier_wait_invalidations($x, $seen + 1));
// Read both until both are copies in x's L1 (count() is the L1's).
var_dump(table_wait_until(fn () => tier_do($x, 'Shm\Table::get("k", "shared"); Shm\Table::get("k2", "shared"); return Shm\Table::count("shared") === 2;')));
$helper = tier_do($x, 'return Shm\Table::stats()["redis"]["helper_pid"];');
posix_kill($helper, SIGSTOP);
tier_redis_kill($r);
$e0 = tier_do($x, 'return Shm\Table::stats()["redis"]["errors"];');
// A failed write: false, and x keeps no copy of k (the write might still land in Redis).
var_dump(tier_do($x, 'return Shm\Table::set("k", "v3", null, "shared");'));
var_dump(tier_do($x, 'return Shm\Table::count("shared");'));
var_dump(tier_do($x, 'return Shm\Table::get("k", "shared");'));
// Once the L1 is no longer fresh (its helper stopped confirming), k2's copy is still there but is not
// served: the read goes to Redis, fails, and is a miss.
var_dump(table_wait_until(fn () => !tier_do($x, 'return Shm\Table::stats()["redis"]["fresh"];')));
var_dump(tier_do($x, 'return [Shm\Table::get("k2", "shared"), Shm\Table::count("shared")];'));
echo 'errors counted: ', tier_do($x, 'return Shm\Table::stats()["redis"]["errors"];') - $e0 >= 3 ? 'yes' : 'no', "\n";
posix_kill($helper, SIGCONT);
seg_wait($x);
?>
--EXPECT--
Shm\Table is unavailable: table.redis_on_error=ignore is not valid; use throw (a failed Redis call throws) or miss (a failed read is a miss, a failed write returns false)
NULL
bool(false)
array(0) {
}
bool(false)
bool(false)
bool(false)
bool(false)
bool(false)
bool(false)
bool(false)
bool(false)
bool(false)
int(0)
bool(false)
string(8) "computed"
int(1)
errors: 16, misses: 5, L1 entries: 0
bool(true)
string(4) "here"
bool(true)
bool(true)
bool(true)
bool(false)
int(1)
NULL
bool(true)
array(2) {
  [0]=>
  NULL
  [1]=>
  int(1)
}
errors counted: yes
