--TEST--
Shm\Table: APCu API: multiprocess: 4 processes x 2,000 apcu_inc give exactly 8,000
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; require __DIR__ . '/apcu.inc'; table_apcu_skipif(); table_skip_unless_pcntl(); ?>
--ENV--
PHP_INI_SCAN_DIR={PWD}/no-conf.d
--INI--
table.apcu_compat=1
apc.enable_cli=1
--FILE--
<?php
require __DIR__ . '/../helpers.inc';
// Half of the workers start on a missing key (apcu_inc creates it), the others on the stored one.
$results = table_fork(4, function (int $w) {
    $fails = 0;
    for ($i = 0; $i < 2000; $i++) {
        if ($w % 2) {
            $ok = apcu_inc('hits', 1, $success) !== false && $success;
        } else {
            $ok = apcu_dec('misses', -1, $success) !== false && $success;
        }
        $fails += $ok ? 0 : 1;
    }
    return $fails;
});
var_dump(array_sum($results), apcu_fetch('hits') + apcu_fetch('misses'), apcu_fetch('hits'), Shm\Table::get('misses', 'apcu'));
?>
--EXPECT--
int(0)
int(8000)
int(4000)
int(4000)
