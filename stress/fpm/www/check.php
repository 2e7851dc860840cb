<?php
// Consistency and writability from inside a worker: every way of counting agrees, and 1,024 keys over a
// fresh namespace can be written, read back and deleted (which needs every stripe lock to be free).
header('Content-Type: application/json');
use Shm\Table;

$st = Table::stats();
$scan = [];
$total = 0;
foreach (Table::fullscan() as $ns => $key) {
    $scan[$ns ?? ''] = ($scan[$ns ?? ''] ?? 0) + 1;
    $total++;
}
$bad = [];
$sumMem = 0;
foreach (array_merge([null], Table::namespaces()) as $ns) {
    $name = $ns ?? '';
    $c = Table::count($ns);
    $k = count(Table::keys(null, $ns));
    $sumMem += Table::memory($ns);
    if ($c !== $k || $c !== ($scan[$name] ?? 0) || ($st['namespaces'][$name]['count'] ?? 0) !== $c) {
        $bad[] = "ns '$name': count $c, keys $k, scan " . ($scan[$name] ?? 0);
    }
}
if ($total !== $st['entries'] || $st['memory_used'] < $sumMem + $st['retired_bytes']) {
    $bad[] = "entries {$st['entries']} vs scan $total; used {$st['memory_used']} vs entries $sumMem + retired {$st['retired_bytes']}";
}
$fail = 0;
$ns = 'check' . getmypid() . '.' . mt_rand();
for ($i = 0; $i < 1024; $i++) {
    $n = $i % 2 ? $ns : null;
    $fail += !Table::set("check$i", [$i, str_repeat('c', $i % 200)], null, $n);
    $fail += Table::get("check$i", $n) !== [$i, str_repeat('c', $i % 200)];
    $fail += !Table::delete("check$i", $n);
}
echo json_encode(['pid' => getmypid(), 'consistent' => $bad === [], 'problems' => $bad, 'write_failures' => $fail,
    'entries' => $st['entries'], 'lock_repairs' => $st['lock_repairs']]), "\n";
