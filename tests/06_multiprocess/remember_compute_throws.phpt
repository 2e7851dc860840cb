--TEST--
Shm\Table: multiprocess: when the computing worker's callback throws, a waiting worker computes instead
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; table_skip_unless_pcntl(); ?>
--FILE--
<?php
use Shm\Table;
require __DIR__ . '/../helpers.inc';

$results = table_fork(4, function (int $w) {
    try {
        return Table::remember('k', function () use ($w) {
            $n = Table::increment('executions');
            usleep(200000);
            if ($n === 1) {
                throw new RuntimeException('first computation fails');
            }
            return "computed on attempt $n";
        });
    } catch (RuntimeException $e) {
        return 'threw: ' . $e->getMessage();
    }
});
sort($results);
print_r($results);
var_dump(Table::get('executions'), Table::get('k'));
?>
--EXPECT--
Array
(
    [0] => computed on attempt 2
    [1] => computed on attempt 2
    [2] => computed on attempt 2
    [3] => threw: first computation fails
)
int(2)
string(21) "computed on attempt 2"
