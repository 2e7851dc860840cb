<?php
// Reads every "m:<i>" back from Shm\Table and from APCu and compares it (===) with record i of
// meteorites.json (a miss is null from the one, false from the other). Reports, per cache, how many keys
// are missing or differ and the first of them; HTTP 500 if any.
header('Content-Type: application/json');
$records = array_values(json_decode(file_get_contents(dirname(__DIR__) . '/meteorites.json'), true, 512, JSON_THROW_ON_ERROR));
$report = ['pid' => getmypid(), 'records' => count($records)];
foreach (['Table' => fn($k) => Shm\Table::get($k), 'APCu' => fn($k) => apcu_fetch($k)] as $name => $get) {
    $bad = 0;
    $first = null;
    foreach ($records as $i => $record) {
        $got = $get("m:$i");
        if ($got !== $record) {
            $bad++;
            $first ??= "m:$i " . ($got === null || $got === false ? 'missing' : 'differs: got ' . substr(json_encode($got), 0, 200));
        }
    }
    $report[$name] = ['bad' => $bad, 'first' => $first];
}
if ($report['Table']['bad'] || $report['APCu']['bad']) {
    http_response_code(500);
}
echo json_encode($report), "\n";
