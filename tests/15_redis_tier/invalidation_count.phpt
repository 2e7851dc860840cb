--TEST--
Shm\Table: redis tier: stats()['redis']['invalidations'] counts what the helper applied, not a writer dropping its own copy
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; table_skip_unless_posix(); require __DIR__ . '/tier.inc'; tier_skipif(); ?>
--FILE--
<?php
require __DIR__ . '/tier.inc';
$r = tier_redis_start();
$x = tier_agent($r);
var_dump(tier_wait_fresh($x));
$helper = tier_do($x, 'return Shm\Table::stats()["redis"]["helper_pid"];');
$seen = tier_invalidations($x);

// With the helper stopped, x's write drops x's own copy at once, but nothing is counted: the count is
// what a process waits on to know that the write's invalidation from Redis has been applied (after
// which a copy it fills stays), and that has not happened yet.
posix_kill($helper, SIGSTOP);
tier_do($x, 'return Shm\Table::set("k", "v", null, "shared");');
var_dump(tier_invalidations($x) === $seen);
posix_kill($helper, SIGCONT);
// Once the helper runs again, it applies the write's invalidation and counts it.
var_dump(tier_wait_invalidations($x, $seen));
var_dump(tier_do($x, 'return Shm\Table::get("k", "shared");'));
seg_wait($x);
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
string(1) "v"
