--TEST--
The fill race: a writer on A against miss-fills on B, 10,000 rounds: no stale read past table.redis_max_stale
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

tier_send($b, '$s = []; $v = []; $last = -1; $hits0 = Shm\Table::stats()["hits"];
    while ($last !== 10000 || count($s) < 1000) { $t = hrtime(true); $x = Shm\Table::get("race", "shared"); $s[] = $t; $v[] = $x ?? -1; $last = $x; }
    $end = hrtime(true); while (hrtime(true) - $end < 3 * ' . BOUND_MS . ' * 1000000) { $t = hrtime(true); $s[] = $t; $v[] = Shm\Table::get("race", "shared"); }
    return [$s, $v, Shm\Table::stats()["hits"] - $hits0];');
$done = tier_do($a, '$d = []; for ($i = 1; $i <= 10000; $i++) { Shm\Table::set("race", $i, null, "shared"); $d[$i] = hrtime(true); if ($i % 500 === 0) { usleep(' . (3 * BOUND_MS) . ' * 1000); } } return $d;');
[$s, $v, $hits] = tier_answer($b)['r'];

$bound = BOUND_MS * 1000000;
$stale = 0;
$i = 0;                       // the newest write that had returned before s - bound
foreach ($s as $k => $start) {
    while ($i < 10000 && $done[$i + 1] <= $start - $bound) {
        $i++;
    }
    if ($v[$k] < $i) {
        $stale++;
    }
}
echo "rounds: ", count($done), "\n";
echo "B reads: ", count($s) >= 1000 ? "enough" : count($s), ", some from its L1: ", var_export($hits > 0, true), "\n";
echo "stale reads past the bound: $stale\n";
echo "B's last read: ", end($v), "\n";
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
