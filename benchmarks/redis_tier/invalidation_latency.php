<?php
// Case c: how long after host A's set() returns host B sees the new value. A (this process) starts B
// (this file with the argument `b`: another PHP process, so another table and another helper) and
// drives it through B's stdin and stdout, one round at a time:
//   A -> B  "r I"     B checks that its L1 holds I-1 (an L1 hit), answers "s", then spins on get()
//   A                 t0 = hrtime(true); set(key, I); tA = hrtime(true) right after set() returns
//   B -> A  "o T S"   T = hrtime(true) when get() first returned I, after S gets
// The latency of the round is T - tA (hrtime is CLOCK_MONOTONIC: one clock for both processes). It
// includes the invalidation's trip (Redis -> B's helper -> B's L1) and B's read of Redis after it. It can
// be negative: Redis may have executed the write, and B seen it, before A is scheduled again after its
// reply (2 cores, B spinning). T - t0 (from set() called) bounds it from above, and is reported too.
// Usage: php invalidation_latency.php ROUNDS
declare(strict_types=1);

use Shm\Table;

require __DIR__ . '/common.php';

const KEY = 'latency';

if (($argv[1] ?? '') === 'b') {
    // Host B.
    tier_wait_fresh(KEY);
    while (($line = fgets(STDIN)) !== false) {
        [$cmd, $i] = explode(' ', trim($line)) + ['', '0'];
        if ($cmd !== 'r') {
            break;
        }
        $i = (int) $i;
        // The old value must be served from the L1, or the round would time B's polling of Redis. A fill
        // that raced an invalidation is refused, so read until a get is a hit (a few tries at most).
        for ($try = 0; ; $try++) {
            $h = tier_hits();
            if (($v = Table::get(KEY, TIER_NS)) !== $i - 1) {
                tier_fail('B: expected ' . ($i - 1) . ' before round ' . $i . ', got ' . var_export($v, true));
            }
            if (tier_hits() - $h === 1) {
                break;
            }
            if ($try === 1000) {
                tier_fail("B: round $i: the old value never came from the L1");
            }
        }
        echo "s\n";
        $spins = 0;
        do {
            $v = Table::get(KEY, TIER_NS);
            $spins++;
        } while ($v === $i - 1);
        $t = hrtime(true);
        if ($v !== $i) {
            tier_fail("B: round $i: expected $i, got " . var_export($v, true));
        }
        echo "o $t $spins\n";
    }
    exit(0);
}

$rounds = (int) ($argv[1] ?? 0);
if ($rounds < 1) {
    fwrite(STDERR, "usage: invalidation_latency.php ROUNDS\n");
    exit(2);
}
Table::set(KEY, 0, null, TIER_NS);
[$proc, $in, $out] = tier_spawn(__FILE__, ['b']);
$lat = $fromCall = [];
$spinsTotal = 0;
for ($i = 1; $i <= $rounds; $i++) {
    fwrite($in, "r $i\n");
    if (($s = tier_read_line($out, 'B')) !== 's') {
        tier_fail("A: unexpected answer from B: $s");
    }
    $t0 = hrtime(true);
    Table::set(KEY, $i, null, TIER_NS);
    $tA = hrtime(true);
    [$o, $tB, $spins] = explode(' ', tier_read_line($out, 'B')) + ['', '0', '0'];
    if ($o !== 'o') {
        tier_fail("A: unexpected answer from B: $o");
    }
    $lat[] = ((int) $tB - $tA) / 1e3;
    $fromCall[] = ((int) $tB - $t0) / 1e3;
    $spinsTotal += (int) $spins;
}
fwrite($in, "q\n");
fclose($in);
fclose($out);
if (proc_close($proc) !== 0) {
    tier_fail('B failed');
}
sort($lat);
sort($fromCall);
tier_result(['case' => 'c', 'row' => 'invalidation latency', 'rounds' => $rounds,
    'p50_us' => $lat[(int) floor(0.50 * ($rounds - 1))], 'p99_us' => $lat[(int) floor(0.99 * ($rounds - 1))],
    'max_us' => $lat[$rounds - 1], 'min_us' => $lat[0],
    'call_p50_us' => $fromCall[(int) floor(0.50 * ($rounds - 1))],
    'call_p99_us' => $fromCall[(int) floor(0.99 * ($rounds - 1))], 'call_max_us' => $fromCall[$rounds - 1], 'spins_per_round' => $spinsTotal / $rounds,
    'verified' => $rounds]);
