--TEST--
Shm\Table: reliability: a fatal error inside remember()'s callback never makes the next remember() of that key wait
--INI--
zend.signal_check=1
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; table_skip_unless_pcntl(); table_skip_unless_posix(); ?>
--FILE--
<?php
use Shm\Table;
require __DIR__ . '/../helpers.inc';
require __DIR__ . '/reliability.inc';

/*
 * A waiter gives up on a claim after 10 seconds: one that did not take over at once has waited that long,
 * so "at once" below is "less than the bound", and the checks are about behaviour (was the claim
 * released?), not about how fast a loaded machine runs.
 */
function timed(callable $fn): array
{
    $t = microtime(true);
    $v = $fn();
    return [$v, microtime(true) - $t < 10.0 ? 'at once' : 'AFTER WAITING'];
}
/* Run $fn in a child whose stderr (fatal errors, zend_signal warnings) goes to a file; returns the exit
 * status and what the child wrote there. */
function in_child_capturing(callable $fn): array
{
    $log = sys_get_temp_dir() . '/table-remember-fatal-' . getmypid() . '.log';
    $code = rel_fork_raw(function () use ($fn, $log) {
        $err = rel_stderr_to($log);
        $fn($err);
    });
    $text = (string) file_get_contents($log);
    unlink($log);
    return [$code, $text];
}
/* A fatal error (a bailout, not an exception) the same on every PHP: PHP 8.4 deprecates E_USER_ERROR for
 * trigger_error(), so redeclare a function instead (E_COMPILE_ERROR). */
function fatal_error(): void
{
    eval('function table_test_declared_twice() {} function table_test_declared_twice() {}');
}
function report(string $name, array $r, string $expect): void
{
    [$code, $text] = $r;
    echo "$name: exit $code, ", str_contains($text, $expect) ? 'fatal error as expected' : "UNEXPECTED: $text",
        str_contains($text, 'zend_signal') ? ' (zend_signal warning!)' : '', "\n";
}

// 1. a fatal error inside the callback, in a child; then the parent computes at once
report('trigger_error', in_child_capturing(function () {
    Table::remember('k1', function () {
        Table::set('k1 computing', true);
        fatal_error();
    });
}), 'last error: Cannot redeclare');
var_dump(Table::get('k1 computing'), Table::exists('k1'));
var_dump(timed(fn() => Table::remember('k1', fn() => 'parent computed k1')));

// 2. an undefined function: an uncaught Error that propagates out of remember() and ends the child
report('undefined function', in_child_capturing(function () {
    Table::remember('k2', fn() => no_such_function_anywhere());
}), 'last error: Uncaught Error: Call to undefined function no_such_function_anywhere()');
var_dump(timed(fn() => Table::remember('k2', fn() => 'parent computed k2')));

// 3. the child's own shutdown function, and a process it forks there, compute the key at once
report('shutdown function', in_child_capturing(function ($err) {
    register_shutdown_function(function () use ($err) {
        [$v, $when] = timed(fn() => Table::remember('k3', fn() => 'computed in shutdown'));
        $g = rel_in_child(fn() => implode(' ', timed(fn() => Table::remember('k3b', fn() => 'grandchild'))) . ', ' . rel_locks_free('g'));
        fwrite($err, "shutdown: $v $when; forked: $g\n");
    });
    Table::remember('k3', function () {
        fatal_error();
    });
}), 'shutdown: computed in shutdown at once; forked: grandchild at once, locks free');
var_dump(Table::get('k3'), Table::get('k3b'));

// 4. the parent waits in remember() while a child computes the same key and then dies of a fatal error:
//    the waiter takes over as soon as the claim is released, not after the 10 s bound
// The child's log is named after this process: CI runs the suite twice side by side (zts, zts-zero-copy),
// and a glob of every such log once removed the other run's before it did (a warning from unlink).
$waiterLog = sys_get_temp_dir() . '/table-remember-fatal-w-' . getmypid() . '.log';
$child = table_child_start(function () use ($waiterLog) {
    $err = rel_stderr_to($waiterLog);
    Table::remember('k4', function () {
        Table::set('k4 computing', true);
        usleep(300000);
        fatal_error();
    });
});
table_wait_until(fn() => Table::exists('k4 computing'));
var_dump(timed(fn() => Table::remember('k4', fn() => 'waiter computed k4')));
table_child_wait($child, 255);
@unlink($waiterLog);

echo rel_consistency(), "\n", rel_locks_free('parent'), "\n";

// 5. the same process: the fatal error ends the script, the shutdown function computes at once
register_shutdown_function(function () {
    var_dump(timed(fn() => Table::remember('k5', fn() => 'computed in shutdown')));
    echo 'forked from shutdown: ', rel_in_child(fn() => implode(' ', timed(fn() => Table::remember('k5', fn() => 'child'))) . ', ' . rel_locks_free('c')), "\n";
    echo rel_consistency(), "\n";
});
Table::remember('k5', function () {
    fatal_error();
});
echo "not reached\n";
?>
--EXPECTF--
trigger_error: exit 255, fatal error as expected
bool(true)
bool(false)
array(2) {
  [0]=>
  string(18) "parent computed k1"
  [1]=>
  string(7) "at once"
}
undefined function: exit 255, fatal error as expected
array(2) {
  [0]=>
  string(18) "parent computed k2"
  [1]=>
  string(7) "at once"
}
shutdown function: exit 255, fatal error as expected
string(20) "computed in shutdown"
string(10) "grandchild"
array(2) {
  [0]=>
  string(18) "waiter computed k4"
  [1]=>
  string(7) "at once"
}
consistent
locks free

Fatal error: Cannot redeclare %s in %s on line %d
array(2) {
  [0]=>
  string(20) "computed in shutdown"
  [1]=>
  string(7) "at once"
}
forked from shutdown: computed in shutdown at once, locks free
consistent
