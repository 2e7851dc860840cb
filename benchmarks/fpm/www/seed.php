<?php
// Stores record i of meteorites.json under "m:<i>" in Shm\Table and in APCu. Once per master is enough: every
// FPM worker maps the master's Shm\Table segment and APCu's shared memory. HTTP 500 if a store fails.
header('Content-Type: application/json');
$records = array_values(json_decode(file_get_contents(dirname(__DIR__) . '/meteorites.json'), true, 512, JSON_THROW_ON_ERROR));
$failed = [];
foreach ($records as $i => $record) {
    Shm\Table::set("m:$i", $record) || $failed[] = "Table m:$i";
    apcu_store("m:$i", $record) || $failed[] = "APCu m:$i";
}
if ($failed) {
    http_response_code(500);
}
echo json_encode(['pid' => getmypid(), 'records' => count($records), 'failed' => array_slice($failed, 0, 5)]), "\n";
