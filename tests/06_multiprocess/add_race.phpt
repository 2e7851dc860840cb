--TEST--
Shm\Table: multiprocess: add() is atomic, exactly one of 4 racing workers wins each key
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; table_skip_unless_pcntl(); ?>
--FILE--
<?php
use Shm\Table;
require __DIR__ . '/../helpers.inc';

$results = table_fork(4, function (int $w) {
    $won = [];
    for ($k = 0; $k < 500; $k++) {
        if (Table::add("race$k", $w)) {
            $won[] = $k;
        }
    }
    return $won;
});
$winners = array_fill(0, 500, []);
foreach ($results as $w => $won) {
    foreach ($won as $k) {
        $winners[$k][] = $w;
    }
}
$bad = 0;
foreach ($winners as $k => $ws) {
    if (count($ws) !== 1 || Table::get("race$k") !== $ws[0]) {
        $bad++;
    }
}
var_dump($bad, Table::count());
?>
--EXPECT--
int(0)
int(500)
