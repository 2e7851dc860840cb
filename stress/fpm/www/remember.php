<?php
// ?fatal=1: remember()'s callback dies of a fatal error (the worker survives: FPM ends the request).
// Otherwise: remember() the same key; it must compute at once, not wait for the 10 s claim bound.
header('Content-Type: application/json');
$t = microtime(true);
if (!empty($_GET['fatal'])) {
    Shm\Table::remember('rk', function () {
        Shm\Table::set('rk computing', getmypid());
        trigger_error('fatal inside remember (expected by stress/fpm/run.sh)', E_USER_ERROR);
    });
}
$v = Shm\Table::remember('rk', fn() => 'computed by ' . getmypid());
echo json_encode(['pid' => getmypid(), 'value' => $v, 'ms' => (int) ((microtime(true) - $t) * 1000)]), "\n";
