<?php
// Part 9 of stress/fpm/run.sh (pools of two users on one master). ?op=write&v=TOKEN writes TOKEN under
// the same names in every pool; ?op=view shows everything this worker can see through every method that
// reads or lists (JSON out).
use Shm\Table;

header('Content-Type: application/json');
// The worker's effective user (without ext/posix, which this php-fpm does not load).
$user = preg_match('/^Uid:\s+\d+\s+(\d+)/m', (string) file_get_contents('/proc/self/status'), $m) ? (int) $m[1] : null;
if (($_GET['op'] ?? 'view') === 'write') {
    $v = (string) ($_GET['v'] ?? '');
    echo json_encode(['user' => $user, 'set' => Table::set('secret', $v) && Table::set('secret', $v, null, 'site')
        && Table::set("only-$v", $v, null, "ns-$v")]), "\n";
    return;
}
$scan = [];
foreach (Table::fullscan() as $ns => $key) {
    $scan[] = ($ns ?? 'null') . ':' . $key . '=' . json_encode(Table::get($key, $ns));
}
sort($scan);
$ns = Table::namespaces();
sort($ns);
$stats = array_keys(Table::stats()['namespaces']);
sort($stats);
echo json_encode([
    'user' => $user,
    'get' => [Table::get('secret'), Table::get('secret', 'site')],
    'getMany' => Table::getMany(['secret'], 'site'),
    'keys' => Table::keys('*', 'site'),
    'namespaces' => $ns,
    'stats' => $stats,
    'fullscan' => $scan,
]), "\n";
