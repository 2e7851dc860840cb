<?php
// The full-table check (run.sh, after the benchmark): a request reads ?n= records zero-copy, keeps them,
// then writes ?w= values of ?size= bytes under random keys, so that the table fills up and every later
// request writes into a full table. Any set() that fails makes the answer an HTTP 500 ("failed N").
// ?report=1 instead answers the counters that tell whether the table was full and whether writes failed.
header('Content-Type: text/plain');
if (isset($_GET['report'])) {
    $s = Shm\Table::stats();
    header('Content-Type: application/json');
    echo json_encode(['evictions' => $s['evictions'], 'oom' => $s['oom'], 'zero_copy_reads' => $s['zero_copy_reads'],
        'held_entries' => $s['held_entries'], 'pins' => $s['pins'], 'memory_free' => $s['memory_free']]), "\n";
    exit;
}
$n = (int) ($_GET['n'] ?? 50);
$w = (int) ($_GET['w'] ?? 20);
$size = (int) ($_GET['size'] ?? 32768);
$keys = (int) ($_GET['keys'] ?? 1000);
$at = mt_rand(0, $keys - 1);
$held = [];
for ($i = 0; $i < $n; $i++) {
    $v = Shm\Table::get('m:' . (($at + $i) % $keys));
    if (is_array($v)) {   // records evicted by the filling are simply misses here
        $held[] = $v;
    }
}
$payload = str_repeat(chr(97 + getmypid() % 26), $size);
$failed = 0;
for ($j = 0; $j < $w; $j++) {
    $failed += (int) !Shm\Table::set('fill:' . mt_rand(0, 1 << 20), ['held' => count($held), 'blob' => $payload]);
}
if ($failed) {
    http_response_code(500);
    echo "failed $failed\n";
    exit;
}
echo "ok " . count($held) . "\n";
