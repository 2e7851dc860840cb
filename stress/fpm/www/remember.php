<?php
// ?fatal=1: remember()'s callback dies of a fatal error (the worker survives: FPM ends the request).
// Otherwise: remember() the same key; it must compute at once, not wait for the 10 s claim bound.
header('Content-Type: application/json');
$t = microtime(true);
if (!empty($_GET['fatal'])) {
    Shm\Table::remember('rk', function () {
        Shm\Table::set('rk computing', getmypid());
        // A fatal error (a bailout) alike on every PHP: 8.4 deprecates trigger_error()'s E_USER_ERROR.
        eval('function fatal_inside_remember_expected_by_stress_fpm() {}'
            . ' function fatal_inside_remember_expected_by_stress_fpm() {}');
    });
}
$v = Shm\Table::remember('rk', fn() => 'computed by ' . getmypid());
echo json_encode(['pid' => getmypid(), 'value' => $v, 'ms' => (int) ((microtime(true) - $t) * 1000)]), "\n";
