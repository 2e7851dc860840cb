--TEST--
Shm\Table: APCu API: multiprocess: apcu_add races have exactly one winner per key
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
    $won = [];
    for ($k = 0; $k < 300; $k++) {
        // Every other key through the array form, which answers with the keys it could not add.
        if ($k % 2) {
            if (apcu_add("race$k", $w)) {
                $won[] = $k;
            }
        } elseif (apcu_add(["race$k" => $w]) === []) {
            $won[] = $k;
        }
    }
    return $won;
});
$winners = array_fill(0, 300, []);
foreach ($results as $w => $won) {
    foreach ($won as $k) {
        $winners[$k][] = $w;
    }
}
$bad = 0;
foreach ($winners as $k => $ws) {
    if (count($ws) !== 1 || apcu_fetch("race$k") !== $ws[0]) {
        $bad++;
    }
}
var_dump($bad, apcu_cache_info(true)['num_entries']);
?>
--EXPECT--
int(0)
int(300)
