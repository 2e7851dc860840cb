--TEST--
Shm\Table: redis tier: a named segment's processes share one L1 and one helper: a CLI sees what php-fpm workers cached
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; table_skip_unless_posix(); require __DIR__ . '/tier.inc'; tier_skipif(); ?>
--FILE--
<?php
require __DIR__ . '/tier.inc';
$r = tier_redis_start();
$seg = ['table.segment' => 'tier', 'table.segment_dir' => $r['dir']];
$x = tier_agent($r, $seg);
var_dump(tier_wait_fresh($x));
$seen = tier_invalidations($x);
tier_do($x, 'return Shm\Table::set("k", "cached by x", null, "shared");');
// A copy x fills before its own write's invalidation arrives is dropped when it does: wait for that
// invalidation. Then x reads until a read is an L1 hit, and another process of the same segment, y, reads
// x's copy from the L1: the same helper serves both. A flush (the helper empties the L1 when a PING goes
// unanswered for table.redis_timeout, which a loaded machine can cause) between x's hit and y's read would
// drop the copy: only then is the pair done again.
var_dump(tier_wait_invalidations($x, $seen));
$y = tier_agent($r, $seg);
$xHit = 'Shm\Table::get("k", "shared"); $h = Shm\Table::stats()["hits"]; Shm\Table::get("k", "shared"); '
    . '$s = Shm\Table::stats(); return [$s["hits"] - $h === 1, $s["redis"]["flushes"]];';
$s = null;
var_dump(table_wait_until(function () use ($x, $y, $xHit, &$s) {
    [$hit, $flushes] = tier_do($x, $xHit);
    if (!$hit) {
        return false;
    }
    $s = tier_do_fresh($y, '$h = Shm\Table::stats()["hits"]; $v = Shm\Table::get("k", "shared"); $st = Shm\Table::stats(); return [$v, $st["hits"] - $h, $st["redis"]];');
    return $s !== null && $s[2]['flushes'] === $flushes;
}));
$sx = tier_do($x, 'return Shm\Table::stats()["redis"];');
echo "y reads: $s[0], from the shared L1: ", var_export($s[1] === 1 && $s[2]['fresh'], true), "\n";
echo "one helper: ", var_export($s[2]['helper_pid'] === $sx['helper_pid'] && $sx['helper_starts'] === 1, true), "\n";
// A write by y drops the copy for x too.
tier_do($y, 'return Shm\Table::set("k", "written by y", null, "shared");');
echo "x reads: ", tier_do($x, 'return Shm\Table::get("k", "shared");'), "\n";
// x leaves; the helper stays for y.
seg_wait($x);
usleep(2500 * 1000);
// (Fresh again once its PING is answered: under load an answer can come later than max_stale.)
$fresh = table_wait_until(function () use ($y, &$s) {
    $s = tier_do($y, 'Shm\Table::get("k", "shared"); return Shm\Table::stats()["redis"];');
    return $s['fresh'];
});
echo "helper stays while y uses the segment: ", var_export($fresh && $s['helper_pid'] === $sx['helper_pid'] && $s['helper_starts'] === 1, true), "\n";
seg_wait($y);
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
y reads: cached by x, from the shared L1: true
one helper: true
x reads: written by y
helper stays while y uses the segment: true
