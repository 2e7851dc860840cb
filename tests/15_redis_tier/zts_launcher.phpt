--TEST--
Shm\Table: redis tier: thread-safe PHP: the helper is forked by a launcher started at MINIT (holding no descriptor of the process), replaced when killed, and the launcher ends with its process
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; table_skip_unless_posix(); require __DIR__ . '/tier.inc'; tier_skipif();
if (!PHP_ZTS) { die('skip needs a thread-safe (ZTS) PHP: under NTS the process forks its helper itself'); } ?>
--FILE--
<?php
require __DIR__ . '/tier.inc';

function running(int $pid): bool
{
    $status = @file_get_contents("/proc/$pid/status");
    return $status !== false && !preg_match('/^State:\s+Z/m', $status);
}

/* The launchers of process $pid: processes named table-launcher whose command line is $pid's (a copy of
 * the process at MINIT). */
function launchers_of(int $pid): array
{
    $cmdline = @file_get_contents("/proc/$pid/cmdline");
    $found = [];
    foreach (glob('/proc/[0-9]*/comm') as $comm) {
        $p = (int) basename(dirname($comm));
        if (trim((string) @file_get_contents($comm)) === 'table-launcher' && running($p)
            && @file_get_contents("/proc/$p/cmdline") === $cmdline) {
            $found[] = $p;
        }
    }
    return $found;
}

$r = tier_redis_start();
$x = tier_agent($r);
$host = proc_get_status($x['proc'])['pid'];
tier_do($x, 'return 1;');
$launchers = [];
var_dump(table_wait_until(function () use ($host, &$launchers) { $launchers = launchers_of($host); return $launchers !== []; }));
echo "one launcher: ", var_export(count($launchers) === 1, true), "\n";
$l = $launchers[0];
// Nothing of the host's: its descriptors are /dev/null and the one socket it reads requests from.
$fds = array_values(array_diff(scandir("/proc/$l/fd"), ['.', '..']));
$targets = array_map(fn ($fd) => str_starts_with($t = (string) @readlink("/proc/$l/fd/$fd"), 'socket:') ? 'socket' : $t, $fds);
sort($targets);
echo "descriptors: ", count($fds), " (", implode(', ', $targets), ")\n";
echo "not the host's child: ", var_export(!preg_match('/^PPid:\s+' . $host . '$/m', (string) file_get_contents("/proc/$l/status")), true), "\n";

var_dump(tier_wait_fresh($x));
$first = tier_do($x, 'return Shm\Table::stats()["redis"];');
echo "helper: ", trim((string) file_get_contents("/proc/{$first['helper_pid']}/comm")), ", started ", $first['helper_starts'], "\n";

// A killed helper is replaced, through the launcher again.
posix_kill($first['helper_pid'], SIGKILL);
$again = null;
var_dump(table_wait_until(function () use ($x, $first, &$again) {
    $again = tier_do($x, 'Shm\Table::get("__warm", "shared"); return Shm\Table::stats()["redis"];');
    return $again['fresh'] && $again['helper_pid'] !== $first['helper_pid'] && $again['helper_pid'] > 0;
}));
echo "replaced: ", var_export($again['helper_starts'] >= 2 && running($again['helper_pid']), true), "\n";

// The launcher leaves with the last process that could ask it for a helper; then the helper leaves too.
seg_wait($x);
var_dump(table_wait_until(fn () => !running($l)));
var_dump(table_wait_until(fn () => !running($again['helper_pid'])));
tier_redis_stop($r);
?>
--EXPECT--
bool(true)
one launcher: true
descriptors: 4 (/dev/null, /dev/null, /dev/null, socket)
not the host's child: true
bool(true)
helper: table-redis, started 1
bool(true)
replaced: true
bool(true)
bool(true)
