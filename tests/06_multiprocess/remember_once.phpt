--TEST--
Shm\Table: multiprocess: remember runs the callback exactly once across 4 workers started together
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; table_skip_unless_pcntl(); ?>
--FILE--
<?php
use Shm\Table;
require __DIR__ . '/../helpers.inc';

$results = table_fork(4, function (int $w) {
    $got = [];
    for ($round = 0; $round < 3; $round++) {
        $got[] = Table::remember("shared$round", function () use ($w, $round) {
            Table::increment("executions$round");
            usleep(200000);
            return ['computed by' => $w, 'round' => $round];
        });
    }
    return $got;
});
for ($round = 0; $round < 3; $round++) {
    $values = array_column($results, $round);
    $same = count($values) === 4 && count(array_unique(array_map('serialize', $values))) === 1;
    echo "round $round: executions ", Table::get("executions$round"), ', ', $same ? 'all workers got the same value' : 'DIFFERENT VALUES', ', ',
        Table::get("shared$round") === $values[0] ? 'stored' : 'NOT STORED', "\n";
}
?>
--EXPECT--
round 0: executions 1, all workers got the same value, stored
round 1: executions 1, all workers got the same value, stored
round 2: executions 1, all workers got the same value, stored
