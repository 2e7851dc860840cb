--TEST--
Shm\Table: redis tier: the fill race: a writer on A against miss-fills on B, 10,000 rounds: no stale read past table.redis_max_stale
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; table_skip_unless_posix(); require __DIR__ . '/tier.inc'; tier_skipif(); ?>
--FILE--
<?php
require __DIR__ . '/tier.inc';
/* B's reads are judged against A's writes on the one monotonic clock of this machine (hrtime): a read
 * that started at s must return at least the newest value whose set() had returned before s - bound.
 * Every 500 writes A pauses for three bounds, so that a stale copy (a fill that lost the race but was
 * stored) would outlive the bound and be seen. */
const BOUND_MS = 100;
$r = tier_redis_start();
$ini = ['table.redis_max_stale' => (string) BOUND_MS];
$a = tier_agent($r, $ini);
$b = tier_agent($r, $ini);
var_dump(tier_wait_fresh($a), tier_wait_fresh($b));
tier_do($a, 'return Shm\Table::set("race", 0, null, "shared");');

$log = $r['dir'] . '/reads.bin';   // B's reads, as (start, value) pairs of 64-bit integers
tier_send($b, '$f = fopen(' . var_export($log, true) . ', "wb"); $n = 0; $last = -1; $hits0 = Shm\Table::stats()["hits"];
    while ($last !== 10000 || $n < 1000) { $t = hrtime(true); $last = Shm\Table::get("race", "shared"); fwrite($f, pack("qq", $t, $last ?? -1)); $n++; }
    $end = hrtime(true); while (hrtime(true) - $end < 3 * ' . BOUND_MS . ' * 1000000) { $t = hrtime(true); fwrite($f, pack("qq", $t, Shm\Table::get("race", "shared") ?? -1)); $n++; }
    fclose($f); return [$n, Shm\Table::stats()["hits"] - $hits0];');
$done = tier_do($a, '$d = []; for ($i = 1; $i <= 10000; $i++) { Shm\Table::set("race", $i, null, "shared"); $d[$i] = hrtime(true); if ($i % 500 === 0) { usleep(' . (3 * BOUND_MS) . ' * 1000); } } return $d;');
[$n, $hits] = tier_answer($b)['r'];
$reads = file_get_contents($log);

$bound = BOUND_MS * 1000000;
$stale = 0;
$i = 0;                       // the newest write that had returned before s - bound
for ($k = 0; $k < $n; $k++) {
    [, $start, $value] = unpack('q2', $reads, 16 * $k);
    while ($i < 10000 && $done[$i + 1] <= $start - $bound) {
        $i++;
    }
    if ($value < $i) {
        $stale++;
    }
}
echo "rounds: ", count($done), "\n";
echo "B reads: ", $n >= 1000 && strlen($reads) === 16 * $n ? "enough" : $n, ", some from its L1: ", var_export($hits > 0, true), "\n";
echo "stale reads past the bound: $stale\n";
echo "B's last read: ", unpack('q2', $reads, 16 * ($n - 1))[2], "\n";
seg_wait($a);
seg_wait($b);
?>
--EXPECT--
bool(true)
bool(true)
rounds: 10000
B reads: enough, some from its L1: true
stale reads past the bound: 0
B's last read: 10000
