<?php
// ?op=set&k=..&v=..  ?op=get&k=..  ?op=reset  (JSON out)
header('Content-Type: application/json');
$k = (string) ($_GET['k'] ?? 'k');
switch ($_GET['op'] ?? 'get') {
    case 'set':
        echo json_encode(['pid' => getmypid(), 'set' => Shm\Table::set($k, (string) ($_GET['v'] ?? ''))]), "\n";
        break;
    case 'reset':
        echo json_encode(['pid' => getmypid(), 'cleared' => Shm\Table::clearAll()]), "\n";
        break;
    default:
        echo json_encode(['pid' => getmypid(), 'value' => Shm\Table::get($k)]), "\n";
}
