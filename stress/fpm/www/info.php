<?php
// What this worker sees: its pid, the ini it runs with, the table's counters.
header('Content-Type: application/json');
$pids = [];
foreach (Shm\Table::keys(null, 'pids') as $pid) {
    $pids[$pid] = Shm\Table::get((string) $pid, 'pids');
}
$st = Shm\Table::stats();
echo json_encode([
    'pid' => getmypid(),
    'pool' => $_SERVER['FPM_POOL'] ?? null,
    'ini' => php_ini_loaded_file(),
    'scanned' => php_ini_scanned_files(),
    'signal_check' => ini_get('zend.signal_check'),
    'hits' => Shm\Table::get('hits'),
    'pids' => $pids,
    'entries' => $st['entries'],
    'lock_repairs' => $st['lock_repairs'],
    'memory_size' => $st['memory_size'],
]), "\n";
