--TEST--
Shm\Table: reliability: exit() or SIGKILL inside remember()'s callback releases the claim at once, for waiters too (zend.signal_check=1)
--INI--
zend.signal_check=1
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; table_skip_unless_pcntl(); table_skip_unless_posix(); ?>
--FILE--
<?php
use Shm\Table;
require __DIR__ . '/../helpers.inc';
require __DIR__ . '/reliability.inc';

/* A waiter gives up on a claim after 10 s: one that did not take over at once has waited that long, so
 * "at once" is "less than the bound", which a slow machine does not turn into a wait. */
function timed(callable $fn): string
{
    $t = microtime(true);
    $v = $fn();
    return var_export($v, true) . (microtime(true) - $t < 10.0 ? ' at once' : ' AFTER WAITING');
}
/* In a child: wait until the parent, having set $marker just before its remember() call, polls in it. */
function parent_waiting(string $marker): void
{
    table_wait_until(fn() => Table::exists($marker));
    table_wait_nanosleep(posix_getppid());
}

// 1. the parent is already waiting in remember() when the computing child calls exit()
$child = table_child_start(function () {
    Table::remember('e1', function () {
        Table::set('e1 computing', true);
        parent_waiting('e1 asking');
        exit(0);
    });
});
table_wait_until(fn() => Table::exists('e1 computing'));
Table::set('e1 asking', true);
echo '1: ', timed(fn() => Table::remember('e1', fn() => 'waiter')), "\n";
table_child_wait($child, 0);

// 2. the same with SIGKILL: the computing child never returns, a second child kills it
$computing = table_child_start(function () {
    Table::remember('e2', function () {
        Table::set('e2 computing', true);
        while (true) {
            usleep(10000);
        }
    });
});
table_wait_until(fn() => Table::exists('e2 computing'));
$pid = $computing['pid'];
$killer = table_child_start(function () use ($pid) {
    parent_waiting('e2 asking');
    return posix_kill($pid, SIGKILL);
});
Table::set('e2 asking', true);
echo '2: ', timed(fn() => Table::remember('e2', fn() => 'waiter')), "\n";
var_dump(table_child_wait($killer));
table_child_wait($computing, 0, SIGKILL);

// 3. exit() in a nested remember(): both claims go
$child = table_child_start(function () {
    Table::remember('outer', fn() => Table::remember('inner', function () {
        exit(0);
    }));
});
table_child_wait($child, 0);
echo '3: ', timed(fn() => Table::remember('outer', fn() => 'o')), ', ', timed(fn() => Table::remember('inner', fn() => 'i')), "\n";

// 4. exit() inside the callback in a child that then runs its shutdown functions, which use the table
$child = table_child_start(function () {
    register_shutdown_function(function () {
        Table::set('e4 shutdown', timed(fn() => Table::remember('e4', fn() => 'computed in shutdown')));
    });
    Table::remember('e4', function () {
        exit(7);
    });
});
table_child_wait($child, 7);
echo '4: ', Table::get('e4 shutdown'), ', then ', timed(fn() => Table::remember('e4', fn() => 'parent')), "\n";
echo rel_consistency(), "\n";

// 5. exit() inside the callback in this process: the shutdown function computes at once, and a forked
//    child finds every lock free
register_shutdown_function(function () {
    echo '5: ', timed(fn() => Table::remember('e5', fn() => 'computed in shutdown')), "\n";
    echo 'child: ', rel_in_child(fn() => rel_locks_free('c') . ', ' . rel_consistency()), "\n";
});
Table::remember('e5', function () {
    exit(0);
});
echo "not reached\n";
?>
--EXPECT--
1: 'waiter' at once
2: 'waiter' at once
bool(true)
3: 'o' at once, 'i' at once
4: 'computed in shutdown' at once, then 'computed in shutdown' at once
consistent
5: 'computed in shutdown' at once
child: locks free, consistent
