--TEST--
Shm\Table: multiprocess: a child forked inside remember()'s callback that exits doesn't release the parent's claim
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; table_skip_unless_pcntl(); ?>
--FILE--
<?php
use Shm\Table;
require __DIR__ . '/../helpers.inc';

// a worker forked before the computation starts asks for the key while the parent computes
$worker = table_child_start(function () {
    table_wait_until(fn() => Table::exists('go'));
    Table::set('asking', true);
    return Table::remember('k', function () {
        Table::increment('worker computed');
        return 'computed by the worker';
    });
});
$v = Table::remember('k', function () {
    // a child forked and gone inside the callback runs its shutdown; the claim must stay the parent's
    $quick = table_child_start(fn() => Table::get('nothing') ?? 'quick');
    var_dump(table_child_wait($quick));
    Table::set('go', true);
    // the worker is waiting for this computation (not merely started): its remember() polls
    table_wait_until(fn() => Table::exists('asking'));
    table_wait_nanosleep($GLOBALS['worker']['pid']);
    return 'computed by the parent';
});
var_dump($v, table_child_wait($worker), Table::get('worker computed'));
?>
--EXPECT--
string(5) "quick"
string(22) "computed by the parent"
string(22) "computed by the parent"
NULL
