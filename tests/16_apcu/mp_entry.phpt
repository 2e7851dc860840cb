--TEST--
Shm\Table: APCu API: multiprocess: apcu_entry computes each missing key once across 4 racing processes
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
$results = table_fork(4, function (int $w) {
    $seen = [];
    for ($k = 0; $k < 20; $k++) {
        $seen[$k] = apcu_entry("once$k", function (string $key) use ($w) {
            apcu_inc("computed:$key");   // counted in the table, by every process that computes
            usleep(20000);               // long enough for the others to arrive and wait
            return "$key by $w";
        });
    }
    return $seen;
});
$bad = 0;
for ($k = 0; $k < 20; $k++) {
    $values = array_unique(array_column($results, $k));
    if (count($values) !== 1 || $values[0] !== apcu_fetch("once$k") || apcu_fetch("computed:once$k") !== 1) {
        echo "once$k: ", json_encode($values), ' computed ', json_encode(apcu_fetch("computed:once$k")), "\n";
        $bad++;
    }
}
var_dump($bad);
?>
--EXPECT--
int(0)
