--TEST--
Shm\Table: multiprocess: a child forked inside remember()'s callback waits for the parent's result instead of computing
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; table_skip_unless_pcntl(); ?>
--FILE--
<?php
use Shm\Table;
require __DIR__ . '/../helpers.inc';

$v = Table::remember('k', function () {
    // the child is another process: the parent's claim is not its own
    $GLOBALS['waiter'] = table_child_start(function () {
        return Table::remember('k', function () {
            Table::increment('child computed');
            return 'computed by the child';
        });
    });
    // the child is waiting for this computation (not merely started): its remember() polls
    table_wait_nanosleep($GLOBALS['waiter']['pid']);
    return 'computed by the parent';
});
$childGot = table_child_wait($GLOBALS['waiter']);
var_dump($v, $childGot, Table::get('child computed'), Table::get('k'));
?>
--EXPECT--
string(22) "computed by the parent"
string(22) "computed by the parent"
NULL
string(22) "computed by the parent"
