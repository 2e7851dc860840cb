--TEST--
Shm\Table: reliability: a process stopped (SIGSTOP) holding one of the table's locks makes the others throw after table.lock_timeout, not hang; reads go on; it all works once the holder continues (issue 33)
--INI--
table.lock_timeout=100
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; table_skip_unless_pcntl(); table_skip_unless_posix(); ?>
--ENV--
TABLE_TEST_HOOKS=1
--FILE--
<?php
use Shm\Table;

function attempt(callable $fn): string
{
    try {
        return 'ok: ' . var_export($fn(), true);
    } catch (Shm\TableException $e) {
        return get_class($e) . ': ' . preg_replace('/by process \(thread\) \d+/', 'by process (thread) PID', $e->getMessage());
    }
}

Table::set('k', 'v');
Table::set('ns-before', 1, null, 'made');
$n = 0;
// Each lock, and a call that needs it.
$needs = [
    'stripes' => fn() => Table::set('k', 'w'),
    'allocator' => fn() => Table::set('new-' . ++$n, str_repeat('x', 100)),
    'namespace' => fn() => Table::set('k', 1, null, 'new-ns-' . ++$n),
    'misc' => fn() => Table::remember('r-' . ++$n, fn() => 1),
];
foreach ($needs as $lock => $call) {
    echo "-- $lock\n";
    $pid = pcntl_fork();
    if ($pid === 0) {
        Shm\__table_test_stop_holding($lock);
        exit(0);
    }
    // Stopped: an event (WUNTRACED), not a sleep.
    var_dump(pcntl_waitpid($pid, $status, WUNTRACED) === $pid && pcntl_wifstopped($status));
    echo attempt($call), "\n";
    echo attempt($call), "\n";   // the same holder, still stopped: gives up at once (not asserted: no timing)
    echo attempt(fn() => Table::get('k')), "\n";   // readers take no lock
    echo attempt(fn() => Table::get('ns-before', 'made')), "\n";
    $stats = Table::stats();   // still counts (with the misc lock stuck it once gave all zeros)
    echo "stats: {$stats['entries']} entries, {$stats['sets']} sets, {$stats['hits']} hits\n";
    posix_kill($pid, SIGCONT);
    var_dump(pcntl_waitpid($pid, $status) === $pid && pcntl_wexitstatus($status) === 0);
    echo attempt($call), "\n";
}
var_dump(Table::stats()['lock_timeouts']);
var_dump(Shm\__table_test_check());
?>
--EXPECT--
-- stripes
bool(true)
Shm\TableException: Shm\Table::set(): the table's stripe lock has been held for more than 100 ms by process (thread) PID, which is stopped or stuck; nothing was changed (table.lock_timeout)
Shm\TableException: Shm\Table::set(): the table's stripe lock has been held for more than 100 ms by process (thread) PID, which is stopped or stuck; nothing was changed (table.lock_timeout)
ok: 'v'
ok: 1
stats: 2 entries, 2 sets, 2 hits
bool(true)
ok: true
-- allocator
bool(true)
Shm\TableException: Shm\Table::set(): the table's allocator lock has been held for more than 100 ms by process (thread) PID, which is stopped or stuck; nothing was changed (table.lock_timeout)
Shm\TableException: Shm\Table::set(): the table's allocator lock has been held for more than 100 ms by process (thread) PID, which is stopped or stuck; nothing was changed (table.lock_timeout)
ok: 'w'
ok: 1
stats: 2 entries, 3 sets, 4 hits
bool(true)
ok: true
-- namespace
bool(true)
Shm\TableException: Shm\Table::set(): the table's namespace lock has been held for more than 100 ms by process (thread) PID, which is stopped or stuck; nothing was changed (table.lock_timeout)
Shm\TableException: Shm\Table::set(): the table's namespace lock has been held for more than 100 ms by process (thread) PID, which is stopped or stuck; nothing was changed (table.lock_timeout)
ok: 'w'
ok: 1
stats: 3 entries, 4 sets, 6 hits
bool(true)
ok: true
-- misc
bool(true)
Shm\TableException: Shm\Table::remember(): the table's misc lock has been held for more than 100 ms by process (thread) PID, which is stopped or stuck; nothing was changed (table.lock_timeout)
Shm\TableException: Shm\Table::remember(): the table's misc lock has been held for more than 100 ms by process (thread) PID, which is stopped or stuck; nothing was changed (table.lock_timeout)
ok: 'w'
ok: 1
stats: 4 entries, 5 sets, 8 hits
bool(true)
ok: 1
int(11)
string(0) ""
