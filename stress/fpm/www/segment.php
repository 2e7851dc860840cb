<?php
// The segment this worker's table is on (a named one per pool: php_admin_value[table.segment]).
header('Content-Type: application/json');
$st = Shm\Table::stats();
echo json_encode(['pid' => getmypid(), 'pool' => $_SERVER['FPM_POOL'] ?? null, 'segment' => $st['segment'],
    'segment_path' => $st['segment_path'], 'segment_created' => $st['segment_created'],
    'start_time' => $st['start_time'], 'processes' => $st['processes'], 'entries' => $st['entries']]), "\n";
