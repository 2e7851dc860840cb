<?php
// php/apcu-apps/lib.php - what the application checks of scripts/apcu-apps.sh share.
//
// Each check script is run as `php -n -d extension=table.so -d table.apcu_compat=1 -d apc.enable_cli=1
// -d table.segment=APP -d table.segment_dir=DIR APP.php STEP`: one process per STEP, all of them on one
// named segment, so what a step finds was written by an earlier process (or by forked children). A step
// prints `ok - ...` / `not ok - ...` lines and nothing else; the script counts them. A warning or notice
// that is not silenced, or an uncaught exception, is a failure of its own (the shell script sees the
// stray output and the exit status).

declare(strict_types=1);

error_reporting(E_ALL & ~E_DEPRECATED & ~E_USER_DEPRECATED);   // the libraries' deprecations are not ours
set_error_handler(static function (int $no, string $msg, string $file, int $line): bool {
	if (!(error_reporting() & $no)) {
		return false;   // silenced with @ by the library, as it means to be
	}
	throw new ErrorException($msg, 0, $no, $file, $line);
});

/** One check: `ok - WHAT`, or `not ok - WHAT (DETAIL)`. */
function check(bool $cond, string $what, string $detail = ''): bool
{
	echo $cond ? "ok - $what\n" : "not ok - $what" . ($detail !== '' ? " ($detail)" : '') . "\n";
	return $cond;
}

/** A value, short, for a failure's detail. */
function show(mixed $v): string
{
	$s = var_export($v, true);
	$s = preg_replace('/\s+/', ' ', $s);
	return strlen($s) > 200 ? substr($s, 0, 200) . '...' : $s;
}

/** The step this process runs (argv[1]); dies with usage for an unknown one. */
function step(array $known): string
{
	global $argv;
	$step = $argv[1] ?? '';
	if (!in_array($step, $known, true)) {
		fwrite(STDERR, basename($argv[0]) . ": unknown step '$step' (one of: " . implode(' ', $known) . ")\n");
		exit(2);
	}
	return $step;
}

/**
 * That this process runs on the table's APCu, on the named segment the script gave it: a check line in
 * the application's first step ($report), a `not ok` line only when it does not hold in the others.
 */
function check_setup(bool $report = false): void
{
	$seg = ini_get('table.segment');
	$stats = Shm\Table::stats();
	// apcu_store() lands in the table's `apcu` namespace only when the functions are the table's (APCu's
	// own would keep it to itself).
	$probe = 'apcu-apps-setup-' . getmypid();
	$ours = function_exists('apcu_store') && apcu_store($probe, 1) && Shm\Table::get($probe, 'apcu') === 1;
	if (function_exists('apcu_delete')) {
		apcu_delete($probe);
	}
	$ok = extension_loaded('table') && ini_get('table.apcu_compat') === '1' && $ours
		&& $seg !== '' && ($stats['segment'] ?? null) === $seg;
	if ($report || !$ok) {
		check($ok, "setup: apcu_* from table.apcu_compat=1, on the named segment '$seg'",
			'apcu_compat=' . show(ini_get('table.apcu_compat')) . ' apcu_store seen by Shm\\Table=' . show($ours) . ' segment=' . show($stats['segment'] ?? null));
	}
}

/**
 * Forks $n children that each run $child($i) once all are forked (a barrier on a table key, so they race
 * for real), and returns what each returned (an int 0..250, through its exit status), by $i. A child that
 * throws prints the exception on stderr and counts as 255.
 */
function fork_race(int $n, string $barrier, callable $child): array
{
	Shm\Table::delete($barrier, 'apcu-apps');
	$pids = [];
	for ($i = 0; $i < $n; $i++) {
		$pid = pcntl_fork();
		if ($pid === -1) {
			throw new RuntimeException('pcntl_fork failed');
		}
		if ($pid === 0) {
			$code = 255;
			try {
				$deadline = microtime(true) + 30;
				while (!Shm\Table::exists($barrier, 'apcu-apps') && microtime(true) < $deadline) {
					usleep(200);
				}
				$code = (int)$child($i);
			} catch (Throwable $e) {
				fwrite(STDERR, "child $i: " . get_class($e) . ': ' . $e->getMessage() . ' at ' . $e->getFile() . ':' . $e->getLine() . "\n");
			}
			fflush(STDOUT);
			exit($code);   // no shutdown functions are registered: exit() is safe in a child
		}
		$pids[$i] = $pid;
	}
	Shm\Table::set($barrier, 1, null, 'apcu-apps');
	$codes = [];
	foreach ($pids as $i => $pid) {
		pcntl_waitpid($pid, $status);
		$codes[$i] = pcntl_wifexited($status) ? pcntl_wexitstatus($status) : 255;
	}
	ksort($codes);
	return $codes;
}
