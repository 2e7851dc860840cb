--TEST--
Shm\Table: multiprocess: remember() waits for another worker's computation only up to its bound, then computes itself
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; table_skip_unless_pcntl(); table_skip_if_no_sleep(); ?>
--FILE--
<?php
use Shm\Table;
require __DIR__ . '/../helpers.inc';

// The slow worker computes until the impatient one has its answer (not for a fixed time that a loaded
// machine could outlast before the impatient worker even starts waiting); the deadline of its wait, far
// past the bound, only ends the test if remember() waited without a bound.
$slow = table_child_start(function () {
    return Table::remember('k', function () {
        Table::set('slow started', true);
        Table::increment('executions');
        table_wait_until(fn() => Table::exists('impatient done'), 60);
        return 'from the slow worker';
    });
});
table_wait_until(fn() => Table::exists('slow started'));
// the bound is 10 seconds: this call must come back with its own result, not hang
$mine = Table::remember('k', function () {
    Table::increment('executions');
    return 'from the impatient worker';
});
Table::set('impatient done', true);
var_dump($mine);
var_dump(table_child_wait($slow));
var_dump(Table::get('executions'));
?>
--EXPECT--
string(25) "from the impatient worker"
string(20) "from the slow worker"
int(2)
