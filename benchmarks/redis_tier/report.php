<?php
// Prints run.sh's tables from the RESULT lines of every repeat (a file, one JSON object a line with the
// repeat number added): the median over repeats of each figure, and for cases a and b the median of the
// same-run factors (each repeat's table figure over its phpredis figure), not a ratio of medians.
// Usage: php report.php RESULTS_FILE REPEATS
declare(strict_types=1);

// Rows of cases a and b name the phpredis client they compared with (Redis, or RedisCluster with
// --cluster); each client's rows are kept apart, single-server ones first.
$rows = [];
foreach (file($argv[1], FILE_IGNORE_NEW_LINES | FILE_SKIP_EMPTY_LINES) as $line) {
    $r = json_decode($line, true);
    $r['client'] ??= 'Redis';
    $rows[$r['case']][$r['row'] . ($r['client'] === 'Redis' ? '' : " ({$r['client']})")][] = $r;
}
$repeats = (int) $argv[2];

function med(array $rs, callable $f): float
{
    $v = array_map($f, $rs);
    sort($v);
    $n = count($v);
    return $n % 2 ? $v[intdiv($n, 2)] : ($v[$n / 2 - 1] + $v[$n / 2]) / 2;
}

// A titled table; nothing at all when no case made rows for it (run.sh --cluster-only runs a and b alone).
function table(string $title, array $head, array $lines): void
{
    if (!$lines) {
        return;
    }
    echo $title;
    $w = array_map('strlen', $head);
    foreach ($lines as $l) {
        foreach ($l as $i => $c) {
            $w[$i] = max($w[$i], strlen($c));
        }
    }
    $sep = '+' . implode('+', array_map(fn ($n) => str_repeat('-', $n + 2), $w)) . "+\n";
    $fmt = fn ($l) => '|' . implode('|', array_map(fn ($c, $i) => ' ' . ($i ? str_pad($c, $w[$i], ' ', STR_PAD_LEFT)
        : str_pad($c, $w[$i])) . ' ', $l, array_keys($l))) . "|\n";
    echo $sep, $fmt($head), $sep;
    foreach ($lines as $l) {
        echo $fmt($l);
    }
    echo $sep;
}

$n0 = fn ($x) => number_format($x, 0);
$n1 = fn ($x) => number_format($x, 1);
$ran = [];

$lines = [];
foreach ($rows['a'] ?? [] as $row => $rs) {
    $lines[] = [$rs[0]['row'], $rs[0]['client'], (string) $rs[0]['bytes'], $n0(med($rs, fn ($r) => $r['table_ops'])),
        $n0(med($rs, fn ($r) => $r['redis_ops'])), sprintf('%.1fx', med($rs, fn ($r) => $r['table_ops'] / $r['redis_ops'])),
        '>= 50x'];
    $ran[] = "a/$row";
}
table(" a. L1 hit: Shm\\Table::get(\$k, 'tiered') vs phpredis GET of the same Redis key, ops/s (one process)\n", ['value', 'client', 'bytes in Redis', 'Table get/s', 'phpredis GET/s', 'Factor', 'goal'], $lines);

$lines = [];
foreach ($rows['b'] ?? [] as $row => $rs) {
    $lines[] = [$rs[0]['row'], $rs[0]['client'], (string) $rs[0]['keys'], $n1(med($rs, fn ($r) => $r['table_us'])),
        $n1(med($rs, fn ($r) => $r['redis_us'])), sprintf('%.2fx', med($rs, fn ($r) => $r['table_us'] / $r['redis_us'])),
        '<= 1.2x'];
    $ran[] = "b/$row";
}
table("\n b. Miss path: each key read once, in Redis but not in this host's L1 (read + fill) vs phpredis GET, us per read\n", ['case', 'client', 'keys/pass', 'Table us', 'phpredis us', 'Factor (time)', 'goal'], $lines);

$lines = [];
foreach ($rows['c'] ?? [] as $row => $rs) {
    $lines[] = ['from A\'s set() returning', (string) $rs[0]['rounds'], $n0(med($rs, fn ($r) => $r['p50_us'])),
        $n0(med($rs, fn ($r) => $r['p99_us'])), $n0(med($rs, fn ($r) => $r['max_us'])), $n0(med($rs, fn ($r) => $r['min_us']))];
    $lines[] = ['from A\'s set() called', (string) $rs[0]['rounds'], $n0(med($rs, fn ($r) => $r['call_p50_us'])),
        $n0(med($rs, fn ($r) => $r['call_p99_us'])), $n0(med($rs, fn ($r) => $r['call_max_us'])), ''];
    $ran[] = "c/$row";
}
table("\n c. Invalidation latency: host A set()s, host B spinning on get() sees the new value, us\n", ['measured', 'rounds', 'p50', 'p99', 'max', 'min'], $lines);

$lines = [];
foreach ($rows['d'] ?? [] as $row => $rs) {
    $lines[] = [$row, $n0(med($rs, fn ($r) => $r['writes_per_s'])), $n0(med($rs, fn ($r) => $r['inval_per_s'])),
        sprintf('%.2f%%', 100 * med($rs, fn ($r) => $r['applied'] / $r['writes']))
            . (($f = array_sum(array_column($rs, 'flushes'))) ? " ($f flushes)" : ''),
        $n1(med($rs, fn ($r) => $r['drain_ms'])), (string) max(array_column($rs, 'max_fresh_age_ms')),
        (string) array_sum(array_column($rs, 'stale_samples')) . '/' . array_sum(array_column($rs, 'samples'))];
    $ran[] = "d/$row";
}
table("\n d. Invalidation throughput: phpredis writers (pipelines of 32 SETs) vs host H's helper\n", ['writers', 'writes/s', 'invalidations/s', 'applied', 'drain ms', 'max fresh_age_ms', 'not fresh'], $lines);
if ($rows['d'] ?? []) {
    echo "(max fresh_age_ms and 'not fresh' samples are over all repeats; the helper PINGs every 250 ms)\n";
}

printf("\nverified: %s (%d repeat%s)\n", implode(' ', $ran), $repeats, $repeats > 1 ? 's' : '');
