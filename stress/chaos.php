<?php
/*
 * stress/chaos.php - SIGKILL chaos test for Shm\Table (and, for comparison, APCu).
 *
 *   php -d extension=/abs/path/table.so stress/chaos.php [--seconds 6] [--workers 4] [--keys 2000]
 *   php -d apc.enable_cli=1 stress/chaos.php --subject apcu
 *
 * N workers (forked from this process, so they share the subject's segment) run a random mix of get, set,
 * delete, increment, setMany and getMany over --keys keys whose values carry a CRC32 of their contents (and
 * the key they were written under). Counters live under separate keys. The supervisor (this process)
 * SIGKILLs a random worker every 20-120 ms for --seconds and respawns it (and for up to 40 s more while a
 * loaded machine has not yet given the run the SIGKILLs and operations it checks for: how much happens in
 * a given time is the machine's business, not the table's). Every value a worker reads is verified; a
 * failure is reported to the supervisor through the worker's socket and fails the run.
 *
 * Afterwards a probe (a child with a deadline) reads every key, compares what it finds with a full scan and
 * with the table's own counts and byte totals, checks every counter against what the workers reported,
 * writes and verifies new values everywhere, and runs tbl_check. Then, with every other process gone, the
 * supervisor calls clearAll() and runs a reclamation pass (stats() releases the slots and zero-copy holds
 * of the dead; a fill of twice the table reaps dead readers and runs the GC; clearAll(); set/delete of one
 * key until reclamation has emptied the retire queue and the held list), and the memory must be what it
 * was before any worker started, to the byte: stats()' memory_used, memory_free, memory_largest_free,
 * retired_bytes, held_bytes, held_entries, held_retired_bytes, entries, pins, slots_used and processes,
 * all recorded at the start; and tbl_check must be clean. tbl_check is a test hook
 * (Shm\__table_test_check(), registered only with TABLE_TEST_HOOKS=1 in the environment at startup): the
 * script re-executes itself with it when it is missing (below).
 *
 * With a table larger than the data (the default), nothing may be evicted either: memory held by the
 * entries that killed readers might still see has to be reclaimed by reaping their slots.
 *
 * Nothing can hang: a worker slot that completes no operation for --hang seconds (default 5; a respawned
 * worker has to complete operations too) is suspected of hanging; the supervisor then stops SIGKILLing
 * that slot and gives its worker --hang seconds more: one that completes an operation was only killed,
 * again and again, before it could (a slow start on a loaded machine) and is SIGKILLed as before; one that
 * does not is a hang, reported with its kernel wait channel. The probe has its own deadline; and a global
 * alarm
 * (--deadline, default seconds + 120) kills every process this script started. The supervisor itself never
 * calls the table while workers run, so it cannot be wedged by it.
 *
 * On a named segment (--segment NAME [--segment-dir DIR], README "Which processes share one table"), the
 * subject is the file-backed table <DIR>/php-table.NAME instead of this process's anonymous one. The
 * settings are PHP_INI_SYSTEM, so when this PHP was not started with them the script re-executes itself
 * with `-d table.segment=NAME -d table.segment_dir=DIR` added to its own command line (`php -d
 * table.segment=NAME ... stress/chaos.php` is a named-segment run too). The segment must be empty at the
 * start (use a new name or remove the file; its eviction counter may be anything, the run's own evictions
 * are what count); it is left in place at the end. Then:
 *   - with --spawn exec, every worker incarnation is a separately started PHP (proc_open of PHP_BINARY
 *     -n -d extension=<this table.so> -d table.segment=... and every other table.* setting of this
 *     process), which attaches to the segment itself while others are being killed; --spawn mixed forks
 *     the even worker slots and starts the odd ones separately; --spawn fork (the default) forks them all
 *   - the probe is always a separately started PHP that attaches after the run: besides its usual
 *     checks, it must find the segment the run used (attach, not create) with exactly two processes attached
 *     (the supervisor and itself), the slots of every killed worker having been released.
 *
 * Options: --subject table|apcu  --seconds S  --workers N  --keys N  --counters N  --seed N
 *          --hang S  --deadline S  --probe-timeout S  --kill-min-ms N  --kill-max-ms N  -v
 *          --segment NAME  --segment-dir DIR  --spawn fork|exec|mixed   (see above; Shm\Table only)
 *          --allow-evictions  for runs with a table smaller than the data (-d table.memory=4M): the probe
 *                        expects entries to be evicted (counts are checked for agreement, not for an exact
 *                        number); every write must still succeed
 *          --allow-oom   as --allow-evictions, and a set() that returns false is counted, not a failure
 *                        (for table.eviction_policy=noeviction)
 *          --value-bytes MIN-MAX  values of MIN to MAX bytes (or with K, M: 50K-1536K) instead of 0 B .. 40 KB:
 *                        a random binary payload as one string in an array, as a raw string, or as a list of
 *                        16-64 KB strings in an array, with the CRC32 over the payload as always
 *          --readers N   N more worker slots that only read (get() and getMany(), every value verified) and
 *                        keep up to 8 of the arrays they read, verifying them again between later reads, until
 *                        they are killed; zero-copy reads are then on (table.zero_copy=1, see below)
 *          --large       issue #19's mode: --value-bytes 50K-1536K --readers 2 --workers 2 --keys 40
 *                        --allow-evictions (options given as well win); run it on a table smaller than the
 *                        data, -d table.memory=16M: it checks that entries were evicted during the run
 *
 * With --readers, every process of the run reads zero-copy: the mode is the whole table's, decided at
 * startup, and every process forked from this one inherits it (docs/zero-copy.md), so the script
 * re-executes itself with -d table.zero_copy=1 when this PHP lacks it. A reader's zero-copy arrays are the
 * segment's own memory, held (table.zero_copy_budget, table.memory / 8 by default, bounds the bytes held;
 * past it reads copy) until the reader dies: its SIGKILL leaves the holds to the reaper. The writers read
 * too. A reader that finds a held array changed fails the run, as does a zero-copy read count of 0. The
 * probe holds what it reads as well, so its byte account after the writes allows its own held replaced
 * entries (within held_retired_bytes), and leaves the exact one to tbl_check; the final memory check runs
 * in the supervisor, which never reads, after the probe is gone.
 * Output ends with `chaos: N passed, N failed` (one result per check); exit status 1 on any failure.
 */

declare(strict_types=1);

// ---- options -------------------------------------------------------------------------------------------

$opt = [
    'subject' => 'table', 'seconds' => 6.0, 'workers' => 4, 'keys' => 2000, 'counters' => 16,
    'seed' => random_int(1, 1 << 30), 'hang' => 5.0, 'deadline' => 0.0, 'probe-timeout' => 60.0,
    'kill-min-ms' => 20, 'kill-max-ms' => 120, 'v' => false, 'allow-evictions' => false, 'allow-oom' => false,
    'segment' => '', 'segment-dir' => '', 'spawn' => 'fork',
    'large' => false, 'value-bytes' => '', 'readers' => 0,
    // set only on the command lines of the processes a named-segment run starts (start_php() below)
    'role' => 'run', 'slot' => 0, 'gen' => 0, 'supervisor' => 0, 'hard-stop' => 0.0,
];
$given = [];   // the options given on the command line
for ($i = 1; $i < $argc; $i++) {
    $a = $argv[$i];
    if ($a === '-v' || $a === '--allow-oom' || $a === '--allow-evictions' || $a === '--large') {
        $opt[ltrim($a, '-')] = true;
        continue;
    }
    if (!str_starts_with($a, '--')) {
        fwrite(STDERR, "chaos.php: unexpected argument $a\n");
        exit(2);
    }
    $name = substr($a, 2);
    $val = null;
    if (str_contains($name, '=')) {
        [$name, $val] = explode('=', $name, 2);
    }
    if (!array_key_exists($name, $opt) || is_bool($opt[$name])) {
        fwrite(STDERR, "chaos.php: unknown option --$name (see the header of this file)\n");
        exit(2);
    }
    $val ??= $argv[++$i] ?? null;
    if ($val === null) {
        fwrite(STDERR, "chaos.php: --$name needs a value\n");
        exit(2);
    }
    $opt[$name] = is_string($opt[$name]) ? $val : (is_float($opt[$name]) ? (float) $val : (int) $val);
    $given[$name] = true;
}
if ($opt['large']) {
    // The preset: what the options given leave to it.
    foreach (['value-bytes' => '50K-1536K', 'readers' => 2, 'workers' => 2, 'keys' => 40] as $k => $v) {
        if (!isset($given[$k])) {
            $opt[$k] = $v;
        }
    }
    $opt['allow-evictions'] = true;
}
$opt['allow-evictions'] = $opt['allow-evictions'] || $opt['allow-oom'];
if ($opt['deadline'] <= 0) {
    $opt['deadline'] = $opt['seconds'] + 120;
}
$opt['workers'] = max(1, $opt['workers']);
$opt['readers'] = max(0, $opt['readers']);
$opt['keys'] = max(8, $opt['keys']);
$opt['counters'] = max(1, $opt['counters']);

// ---- results -------------------------------------------------------------------------------------------

$PASSED = 0;
$FAILED = 0;
function check(bool $ok, string $what, string $detail = ''): bool
{
    global $PASSED, $FAILED;
    $ok ? $PASSED++ : $FAILED++;
    echo $ok ? '  ok    ' : '  FAIL  ', $what, $detail !== '' ? " ($detail)" : '', "\n";
    return $ok;
}
function summary_and_exit(): never
{
    global $PASSED, $FAILED;
    echo "chaos: $PASSED passed, $FAILED failed\n";
    exit($FAILED === 0 && $PASSED > 0 ? 0 : 1);
}
function note(string $s): void
{
    echo $s, "\n";
}

// --value-bytes MIN-MAX: bytes, or with K or M (1.5M, 1536K).
$VALUE_BYTES = null;
if ($opt['value-bytes'] !== '') {
    $size = fn(string $x): ?int => preg_match('/^\s*(\d+(?:\.\d+)?)\s*([KkMm]?)\s*$/', $x, $m)
        ? (int) round((float) $m[1] * ['' => 1, 'k' => 1024, 'm' => 1 << 20][strtolower($m[2])]) : null;
    $range = explode('-', $opt['value-bytes']);
    $VALUE_BYTES = count($range) === 2 ? [$size($range[0]), $size($range[1])] : [null, null];
    if ($VALUE_BYTES[0] === null || $VALUE_BYTES[1] === null || $VALUE_BYTES[0] < 64 || $VALUE_BYTES[0] > $VALUE_BYTES[1]) {
        check(false, "--value-bytes {$opt['value-bytes']} is MIN-MAX, in bytes or with K or M, MIN at least 64");
        summary_and_exit();
    }
    $opt['value-bytes'] = "{$VALUE_BYTES[0]}-{$VALUE_BYTES[1]}";   // as the processes it starts get it
}
define('VALUE_BYTES', $VALUE_BYTES);

// The processes a named-segment run starts separately load no php.ini, so no posix: they need none.
foreach ($opt['role'] === 'run' ? ['pcntl_fork', 'posix_kill', 'stream_socket_pair'] : [] as $fn) {
    if (!function_exists($fn)) {
        check(false, "needs $fn() (the pcntl and posix extensions)");
        summary_and_exit();
    }
}

// ---- a named segment -----------------------------------------------------------------------------------

// `php -d table.segment=NAME stress/chaos.php` is a named-segment run too.
if ($opt['segment'] === '' && $opt['subject'] === 'table' && (string) ini_get('table.segment') !== '') {
    $opt['segment'] = (string) ini_get('table.segment');
}
if (!in_array($opt['spawn'], ['fork', 'exec', 'mixed'], true)) {
    check(false, "unknown --spawn {$opt['spawn']} (fork, exec or mixed)");
    summary_and_exit();
}
if ($opt['segment'] === '' && $opt['spawn'] !== 'fork') {
    check(false, "--spawn {$opt['spawn']} needs a named segment (--segment NAME): a separately started process has an anonymous table of its own");
    summary_and_exit();
}
if ($opt['segment'] !== '' && $opt['subject'] !== 'table') {
    check(false, '--segment is for --subject table');
    summary_and_exit();
}
if ($opt['segment'] !== '' && $opt['segment-dir'] === '') {
    $opt['segment-dir'] = (string) ini_get('table.segment_dir') ?: '/dev/shm';
}

// ---- what this PHP has to be started with --------------------------------------------------------------

/* The settings a run needs are PHP_INI_SYSTEM, and the test hooks (Shm\__table_test_check(), tbl_check) are
 * registered only when TABLE_TEST_HOOKS=1 is in the environment at startup. When this PHP lacks any of
 * them, run this script again in a PHP started with them (same pid, same arguments, the settings added
 * after the binary, the variable added to the environment). */
$startup = [];
$startupEnv = [];
if ($opt['role'] === 'run' && $opt['subject'] === 'table') {
    if ($opt['segment'] !== '' && (ini_get('table.segment') !== $opt['segment'] || ini_get('table.segment_dir') !== $opt['segment-dir'])) {
        $startup['table.segment'] = $opt['segment'];
        $startup['table.segment_dir'] = $opt['segment-dir'];
    }
    // The mode is the whole table's (docs/zero-copy.md): writers, readers, the probe and this process all
    // run with it, as every process forked from this one does.
    if ($opt['readers'] > 0 && !in_array(strtolower((string) ini_get('table.zero_copy')), ['1', 'on'], true)) {
        $startup['table.zero_copy'] = '1';
    }
    if (class_exists('Shm\Table') && !function_exists('Shm\__table_test_check')) {
        $startupEnv['TABLE_TEST_HOOKS'] = '1';
    }
}
if ($startup || $startupEnv) {
    $cmd = (string) @file_get_contents('/proc/self/cmdline');
    if (getenv('CHAOS_REEXEC') !== false || $cmd === '' || !function_exists('pcntl_exec')) {
        $have = [];
        foreach (array_keys($startup) as $k) {
            $have[] = "$k=" . var_export(ini_get($k), true);
        }
        check(false, 'this PHP runs with ' . implode(', ', array_map(fn($k, $v) => "$k=$v", array_keys($startup + $startupEnv), $startup + $startupEnv)),
            ($have ? 'it has ' . implode(', ', $have) : 'the test hooks are not registered') . ($cmd === '' ? '; no /proc/self/cmdline to re-execute it with them' : ''));
        summary_and_exit();
    }
    $args = array_slice(explode("\0", rtrim($cmd, "\0")), 1);
    $pre = [];
    foreach ($startup as $k => $v) {
        array_push($pre, '-d', "$k=$v");
    }
    flush();
    pcntl_exec(PHP_BINARY, array_merge($pre, $args), $startupEnv + getenv() + ['CHAOS_REEXEC' => '1']);
    check(false, 'pcntl_exec(' . PHP_BINARY . ') to run with ' . json_encode($startup + $startupEnv));
    summary_and_exit();
}

// ---- subjects ------------------------------------------------------------------------------------------

/* What the harness needs from a shared-memory cache. Namespaces are emulated with a key prefix where the
 * subject has none. */
interface Subject
{
    public function name(): string;
    public function available(): ?string;           // null when usable, else why not
    public function get(string $k, ?string $ns): mixed;  // null on a miss
    public function set(string $k, mixed $v, ?string $ns): bool;
    public function delete(string $k, ?string $ns): bool;
    public function incr(string $k, int $by, ?string $ns): mixed;
    public function setMany(array $kv, ?string $ns): bool;
    public function getMany(array $keys, ?string $ns): array;
    /** Every live key as [ns, key] pairs, from the subject's own enumeration. */
    public function scan(): array;
    /** The subject's own idea of how many entries it holds. */
    public function entries(): int;
    public function info(): array;
}

final class TableSubject implements Subject
{
    public function name(): string { return 'Shm\Table'; }
    public function available(): ?string
    {
        if (!class_exists('Shm\Table')) {
            return 'the table extension is not loaded (php -d extension=/abs/path/table.so ...)';
        }
        try {
            Shm\Table::stats();
        } catch (Throwable $e) {
            return get_class($e) . ': ' . $e->getMessage();
        }
        return null;
    }
    public function get(string $k, ?string $ns): mixed { return Shm\Table::get($k, $ns); }
    public function set(string $k, mixed $v, ?string $ns): bool { return Shm\Table::set($k, $v, null, $ns); }
    public function delete(string $k, ?string $ns): bool { return Shm\Table::delete($k, $ns); }
    public function incr(string $k, int $by, ?string $ns): mixed { return Shm\Table::increment($k, $by, null, $ns); }
    public function setMany(array $kv, ?string $ns): bool { return Shm\Table::setMany($kv, null, $ns); }
    public function getMany(array $keys, ?string $ns): array { return Shm\Table::getMany($keys, $ns); }
    public function scan(): array
    {
        $out = [];
        foreach (Shm\Table::fullscan() as $ns => $key) {
            $out[] = [$ns, (string) $key];
        }
        return $out;
    }
    public function entries(): int { return Shm\Table::stats()['entries']; }
    public function info(): array { return Shm\Table::stats(); }
}

final class ApcuSubject implements Subject
{
    private static function k(string $k, ?string $ns): string { return ($ns ?? '') . '|' . $k; }
    public function name(): string { return 'APCu ' . phpversion('apcu'); }
    public function available(): ?string
    {
        if (!function_exists('apcu_enabled')) {
            return 'the apcu extension is not loaded';
        }
        if (!apcu_enabled()) {
            return 'APCu is disabled in the CLI: run with -d apc.enable_cli=1';
        }
        return null;
    }
    public function get(string $k, ?string $ns): mixed
    {
        $v = apcu_fetch(self::k($k, $ns), $ok);
        return $ok ? $v : null;
    }
    public function set(string $k, mixed $v, ?string $ns): bool { return apcu_store(self::k($k, $ns), $v); }
    public function delete(string $k, ?string $ns): bool { return apcu_delete(self::k($k, $ns)); }
    public function incr(string $k, int $by, ?string $ns): mixed { return apcu_inc(self::k($k, $ns), $by); }
    public function setMany(array $kv, ?string $ns): bool
    {
        $m = [];
        foreach ($kv as $k => $v) {
            $m[self::k((string) $k, $ns)] = $v;
        }
        return apcu_store($m) === [];
    }
    public function getMany(array $keys, ?string $ns): array
    {
        $full = [];
        foreach ($keys as $k) {
            $full[self::k($k, $ns)] = $k;
        }
        $out = [];
        foreach (apcu_fetch(array_keys($full)) ?: [] as $fk => $v) {
            $out[$full[$fk]] = $v;
        }
        return $out;
    }
    public function scan(): array
    {
        $out = [];
        foreach (new APCUIterator(null, APC_ITER_KEY) as $e) {
            [$ns, $k] = explode('|', $e['key'], 2);
            $out[] = [$ns === '' ? null : $ns, $k];
        }
        return $out;
    }
    public function entries(): int { return (int) apcu_cache_info(true)['num_entries']; }
    public function info(): array
    {
        $c = apcu_cache_info(true);
        $s = apcu_sma_info(true);
        return ['entries' => $c['num_entries'], 'expunges' => $c['expunges'] ?? null,
            'mem_size' => $c['mem_size'] ?? null, 'avail_mem' => $s['avail_mem'] ?? null];
    }
}

$SUBJECT = match ($opt['subject']) {
    'table' => new TableSubject(),
    'apcu' => new ApcuSubject(),
    default => null,
};
if ($SUBJECT === null) {
    check(false, "unknown --subject {$opt['subject']} (table or apcu)");
    summary_and_exit();
}
if (($why = $SUBJECT->available()) !== null) {
    check(false, "{$SUBJECT->name()} is usable", $why);
    summary_and_exit();
}

// ---- the data set --------------------------------------------------------------------------------------

const NS_OTHER = 'chaos';

/* Key i: "k<i>"; every fourth one lives in a namespace, so namespace bookkeeping is exercised too. */
function key_of(int $i): array
{
    return ["k$i", $i % 4 === 3 ? NS_OTHER : null];
}
function ident(string $k, ?string $ns): string
{
    return ($ns ?? '') . '/' . $k;
}
/* A value whose integrity and identity can be verified: three shapes (native array, raw string, object
 * through the serializer), random binary payloads of 0 B .. 40 KB, a CRC32 over everything. */
function make_value(string $id, int $seq, int $w): mixed
{
    if (VALUE_BYTES !== null) {
        return make_large_value($id, $seq, $w, ...VALUE_BYTES);
    }
    $r = mt_rand(0, 99);
    $len = $r < 70 ? mt_rand(0, 200) : ($r < 96 ? mt_rand(201, 4000) : mt_rand(4001, 40000));
    $p = $len > 0 ? random_bytes($len) : '';
    $crc = crc32("$id|$seq|$w|$p");
    switch ($seq % 3) {
        case 0:
            return ['id' => $id, 'n' => $seq, 'w' => $w, 'p' => $p, 'crc' => $crc];
        case 1:
            return "V|$crc|$id|$seq|$w|$p";
        default:
            $o = new stdClass();
            $o->id = $id;
            $o->n = $seq;
            $o->w = $w;
            $o->p = $p;
            $o->crc = $crc;
            return $o;
    }
}
/* With --value-bytes: a random binary payload of $min..$max bytes, as one string in an array (whose image
 * is its compact size: zero-copy readers get it in place), as a raw string (always copied), or as a list of
 * 16-64 KB strings in an array (zero-copy too). The CRC32 is over the payload's bytes, however split. */
function make_large_value(string $id, int $seq, int $w, int $min, int $max): mixed
{
    $len = mt_rand($min, $max);
    if ($seq % 3 === 2) {
        $p = [];
        for ($left = $len; $left > 0; $left -= $n) {
            $p[] = random_bytes($n = min($left, mt_rand(16384, 65536)));
        }
        return ['id' => $id, 'n' => $seq, 'w' => $w, 'p' => $p, 'crc' => crc32("$id|$seq|$w|" . implode('', $p))];
    }
    $p = random_bytes($len);
    $crc = crc32("$id|$seq|$w|$p");
    return $seq % 3 === 0 ? ['id' => $id, 'n' => $seq, 'w' => $w, 'p' => $p, 'crc' => $crc] : "V|$crc|$id|$seq|$w|$p";
}
/* null when $v is a valid value for $id, else what is wrong with it. */
function verify_value(string $id, mixed $v): ?string
{
    if (is_string($v)) {
        $parts = explode('|', $v, 6);
        if (count($parts) !== 6 || $parts[0] !== 'V') {
            return 'malformed string value (' . strlen($v) . ' bytes)';
        }
        [, $crc, $vid, $seq, $w, $p] = $parts;
        if ($vid !== $id) {
            return "string value of $vid found under $id";
        }
        return (string) crc32("$vid|$seq|$w|$p") === $crc ? null : 'string value fails its CRC';
    }
    if ($v instanceof stdClass) {
        $v = (array) $v;
        $shape = 'object';
    } elseif (is_array($v)) {
        $shape = 'array';
    } else {
        return 'unexpected ' . get_debug_type($v);
    }
    if (array_keys($v) !== ['id', 'n', 'w', 'p', 'crc'] || !is_string($v['id']) || !is_int($v['n'])
        || !is_int($v['w']) || !is_int($v['crc'])) {
        return "malformed $shape value";
    }
    $p = $v['p'];
    if (is_array($p)) {   // make_large_value()'s list of strings
        if (!array_is_list($p) || array_filter($p, 'is_string') !== $p) {
            return "malformed $shape value (its payload list)";
        }
        $p = implode('', $p);
    } elseif (!is_string($p)) {
        return "malformed $shape value";
    }
    if ($v['id'] !== $id) {
        return "$shape value of {$v['id']} found under $id";
    }
    return crc32("{$v['id']}|{$v['n']}|{$v['w']}|$p") === $v['crc'] ? null : "$shape value fails its CRC";
}

// ---- the processes a named-segment run starts separately -----------------------------------------------

/* The table.so this process loaded. */
function loaded_table_so(): string
{
    foreach (@file('/proc/self/maps') ?: [] as $line) {
        if (preg_match('~\s(/\S*/table\.so)$~', rtrim($line), $m)) {
            return $m[1];
        }
    }
    $so = ini_get('extension_dir') . '/table.so';
    if (!is_file($so)) {
        throw new RuntimeException('cannot tell which table.so this process loaded (no /proc/self/maps)');
    }
    return $so;
}

/* The command line of a separately started PHP that runs this script in $role on the same named segment:
 * no php.ini (-n), this table.so and every table.* setting of this process but table.segment_recreate
 * (such a process attaches, it never replaces the segment) and table.memory, which is the size of the
 * segment attached ($opt['segment-size'], so a segment of another size warns once, in the supervisor), and
 * the options that shape the data set. */
function php_child_argv(array $opt, string $role, array $args): array
{
    $argv = [PHP_BINARY, '-n'];
    if (extension_loaded('igbinary')) {
        array_push($argv, '-d', 'extension=igbinary');   // a table.so built with igbinary needs it first
    }
    array_push($argv, '-d', 'extension=' . loaded_table_so(), '-d', 'display_errors=stderr',
        '-d', 'memory_limit=' . ini_get('memory_limit'));
    foreach (ini_get_all('table', false) as $k => $v) {
        if ($k === 'table.memory' && isset($opt['segment-size'])) {
            $v = (string) $opt['segment-size'];
        }
        if ($k !== 'table.segment_recreate' && $v !== null) {
            array_push($argv, '-d', "$k=$v");
        }
    }
    array_push($argv, __FILE__, '--role', $role, '--segment', $opt['segment'], '--segment-dir', $opt['segment-dir'],
        '--keys', (string) $opt['keys'], '--counters', (string) $opt['counters'], '--seed', (string) $opt['seed'],
        '--workers', (string) $opt['workers'], '--readers', (string) $opt['readers']);
    if ($opt['value-bytes'] !== '') {
        array_push($argv, '--value-bytes', $opt['value-bytes']);
    }
    foreach (['allow-evictions', 'allow-oom'] as $flag) {
        if ($opt[$flag]) {
            $argv[] = "--$flag";
        }
    }
    return array_merge($argv, array_map('strval', $args));
}

if ($opt['role'] === 'worker' || $opt['role'] === 'probe') {
    // Started by a named-segment run: it reads this process's stdout, a line at a time (see worker()). A
    // warning while attaching (another size, a segment refused) fails the run like any other error.
    set_error_handler(function (int $no, string $msg, string $file, int $line): bool {
        throw new ErrorException($msg, 0, $no, $file, $line);
    });
    try {
        if ((Shm\Table::stats()['segment'] ?? null) !== $opt['segment']) {
            throw new RuntimeException("a separately started {$opt['role']} is not on table.segment={$opt['segment']}");
        }
        if ($opt['role'] === 'worker') {
            worker($SUBJECT, STDOUT, $opt['slot'], $opt['gen'], $opt, $opt['supervisor'], $opt['hard-stop']);
        } else {
            probe($SUBJECT, STDOUT, $opt);
        }
    } catch (Throwable $e) {
        @fwrite(STDOUT, 'E uncaught ' . str_replace("\n", ' ', get_class($e) . ': ' . $e->getMessage()) . "\n");
        exit(1);
    }
    exit(0);
}
if ($opt['role'] !== 'run') {
    check(false, "unknown --role {$opt['role']}");
    summary_and_exit();
}

// ---- process bookkeeping (supervisor) ------------------------------------------------------------------

$SUPERVISOR = getmypid();
$CHILDREN = [];   // pid => true: every process this script started and has not reaped yet
$PROCS = [];      // pid => proc_open handle of a separately started one, until its output is read

function kill_everything(): void
{
    global $CHILDREN;
    foreach (array_keys($CHILDREN) as $pid) {
        posix_kill($pid, SIGKILL);
    }
    foreach (array_keys($CHILDREN) as $pid) {
        pcntl_waitpid($pid, $st);
        unset($CHILDREN[$pid]);
    }
}

pcntl_async_signals(true);
pcntl_signal(SIGALRM, function () use ($opt) {
    global $SUPERVISOR;
    if (getmypid() !== $SUPERVISOR) {
        exit(3);
    }
    echo "chaos: global deadline of {$opt['deadline']} s reached; killing every process of this run\n";
    kill_everything();
    check(false, "finished within the global deadline of {$opt['deadline']} s");
    summary_and_exit();
});
foreach ([SIGTERM, SIGINT, SIGHUP] as $sig) {
    pcntl_signal($sig, function (int $sig) {
        global $SUPERVISOR;
        if (getmypid() === $SUPERVISOR) {
            kill_everything();
            echo "chaos: interrupted by signal $sig\n";
            exit(1);
        }
        exit(3);
    });
}
pcntl_alarm((int) ceil($opt['deadline']));

/*
 * Fork a child that runs $fn($sock) with one end of a socket pair, and never returns. The parent gets
 * [pid, its end]. The child closes every other supervisor-side socket it inherited.
 */
function spawn(callable $fn, array $inherited): array
{
    global $CHILDREN;
    $pair = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
    if ($pair === false) {
        throw new RuntimeException('stream_socket_pair() failed');
    }
    flush();
    $pid = pcntl_fork();
    if ($pid === -1) {
        throw new RuntimeException('pcntl_fork() failed');
    }
    if ($pid === 0) {
        // Child: a fresh signal setup (default dispositions, no alarm), only its own socket.
        pcntl_alarm(0);
        foreach ([SIGALRM, SIGTERM, SIGINT, SIGHUP] as $sig) {
            pcntl_signal($sig, SIG_DFL);
        }
        foreach ($inherited as $s) {
            if (is_resource($s)) {
                fclose($s);
            }
        }
        fclose($pair[0]);
        $code = 0;
        try {
            $fn($pair[1]);
        } catch (Throwable $e) {
            @fwrite($pair[1], 'E uncaught ' . str_replace("\n", ' ', get_class($e) . ': ' . $e->getMessage()) . "\n");
            $code = 1;
        }
        exit($code);
    }
    fclose($pair[1]);
    stream_set_blocking($pair[0], false);
    $CHILDREN[$pid] = true;
    return [$pid, $pair[0]];
}

/* Start a separately started PHP (php_child_argv()); the parent gets [pid, its stdout]. Its stderr is
 * this process's. It is reaped with pcntl_waitpid() like a forked child; its proc_open handle is dropped
 * (forget_proc()) once its output has been read, since dropping it closes the pipe. */
function start_php(array $argv): array
{
    global $CHILDREN, $PROCS;
    flush();
    $p = proc_open($argv, [0 => ['file', '/dev/null', 'r'], 1 => ['pipe', 'w'], 2 => STDERR], $pipes);
    if (!is_resource($p)) {
        throw new RuntimeException('proc_open(' . PHP_BINARY . ') failed');
    }
    $pid = proc_get_status($p)['pid'];
    stream_set_blocking($pipes[1], false);
    $CHILDREN[$pid] = true;
    $PROCS[$pid] = $p;
    return [$pid, $pipes[1]];
}
function forget_proc(int $pid): void
{
    global $PROCS;
    unset($PROCS[$pid]);
}

// ---- the worker ----------------------------------------------------------------------------------------

/*
 * One operation of a reader (--readers): get() or getMany() of random keys, every value verified, and the
 * arrays kept (up to 8; zero-copy, these are the segment's own) and verified again while later reads,
 * other workers' writes, evictions and SIGKILLs go on: an entry's memory reused while a reader still holds
 * it fails a CRC (or worse). One op in six re-verifies every array held.
 */
function read_and_hold(Subject $S, callable $pick, array &$held, callable $fail): void
{
    $r = mt_rand(0, 99);
    $got = [];
    if ($r < 70) {
        [$k, $ns] = key_of($pick());
        $got[ident($k, $ns)] = $S->get($k, $ns);
    } elseif ($r < 84) {
        $ns = mt_rand(0, 3) === 3 ? NS_OTHER : null;
        $keys = [];
        for ($j = 0; $j < 3; $j++) {
            $i = $pick();
            [$k] = key_of($ns === null ? ($i % 4 === 3 ? $i - 1 : $i) : ($i - $i % 4 + 3));
            $keys[] = $k;
        }
        foreach ($S->getMany($keys, $ns) as $k => $v) {
            $got[ident((string) $k, $ns)] = $v;
        }
    } else {
        foreach ($held as [$id, $v]) {
            if (($err = verify_value($id, $v)) !== null) {
                $fail("an array held across reads, $id: $err");
            }
        }
        return;
    }
    foreach ($got as $id => $v) {
        if ($v === null) {
            continue;
        }
        if (($err = verify_value($id, $v)) !== null) {
            $fail("read $id: $err");
        } elseif (is_array($v)) {
            $held[count($held) < 8 ? count($held) : mt_rand(0, 7)] = [$id, $v];
        }
    }
    if ($held && ($err = verify_value(...$held[$i = array_rand($held)])) !== null) {
        $fail("an array held across reads, {$held[$i][0]}: $err");
    }
}

/*
 * Messages to the supervisor, one line each (short, so one write(2) each, never torn):
 *   p <ops>        progress: operations done by this incarnation so far (at least every 20 ms)
 *   I <c> <by>     about to increment counter c by `by`; any later line confirms it completed
 *   E <text>       an error: a value failed verification, a call failed, a PHP warning...
 *   F              a set()/setMany() returned false (only sent with --allow-oom; otherwise an E)
 *   X              the increment announced by the last I returned false (--allow-oom): not applied
 */
function worker(Subject $S, $sock, int $w, int $gen, array $opt, int $supervisor, float $hardStop): void
{
    $send = function (string $line) use ($sock) {
        for ($off = 0, $len = strlen($line); $off < $len; $off += $n) {
            $n = fwrite($sock, substr($line, $off));
            if ($n === false || $n === 0) {
                exit(4);   // the supervisor is gone
            }
        }
    };
    set_error_handler(function (int $no, string $msg, string $file, int $line) use ($send) {
        $send('E php error ' . $no . ': ' . str_replace("\n", ' ', $msg) . " at line $line\n");
        return true;
    });
    mt_srand($opt['seed'] * 7919 + $w * 131 + $gen);
    $nkeys = $opt['keys'];
    $hot = min(64, $nkeys);
    $seq = $gen * 1000000000 + $w * 100000000;
    $ops = 0;
    $last = microtime(true);
    $send("p 0\n");
    $pick = function () use ($nkeys, $hot): int {
        return mt_rand(0, 1) ? mt_rand(0, $hot - 1) : mt_rand(0, $nkeys - 1);
    };
    $fail = function (string $what) use ($send) {
        $send('E ' . str_replace("\n", ' ', $what) . "\n");
    };
    $reader = $w >= $opt['workers'];   // slots past --workers are the --readers
    $held = [];
    $setMany = VALUE_BYTES === null ? 4 : 2;
    $every = VALUE_BYTES === null ? 15 : 0;   // large values: an operation takes milliseconds
    while (true) {
        $r = mt_rand(0, 99);
        try {
            if ($reader) {
                read_and_hold($S, $pick, $held, $fail);
            } elseif ($r < 45) {                                // get
                [$k, $ns] = key_of($pick());
                $v = $S->get($k, $ns);
                if ($v !== null && ($err = verify_value(ident($k, $ns), $v)) !== null) {
                    $fail("get $k: $err");
                }
            } elseif ($r < 69) {                                // set
                [$k, $ns] = key_of($pick());
                $v = make_value(ident($k, $ns), ++$seq, $w);
                if ($S->set($k, $v, $ns) !== true) {
                    $opt['allow-oom'] ? $send("F\n") : $fail("set $k returned false");
                }
            } elseif ($r < 77) {                                // delete
                [$k, $ns] = key_of($pick());
                $S->delete($k, $ns);
            } elseif ($r < 90) {                                // increment
                $c = mt_rand(0, $opt['counters'] - 1);
                $by = mt_rand(1, 3);
                $send("I $c $by\n");
                $n = $S->incr("ctr$c", $by, null);
                if ($n === false && $opt['allow-oom']) {
                    $send("X\n");      // refused: not applied
                } elseif (!is_int($n) || $n < $by) {
                    $fail("increment ctr$c by $by returned " . var_export($n, true));
                }
            } elseif ($r < 93) {                                // read a counter
                $c = mt_rand(0, $opt['counters'] - 1);
                $n = $S->get("ctr$c", null);
                if ($n !== null && (!is_int($n) || $n < 0)) {
                    $fail("counter ctr$c holds " . get_debug_type($n));
                }
            } elseif ($r < 96) {                                // setMany
                $ns = mt_rand(0, 1) ? null : NS_OTHER;
                $batch = [];
                for ($j = 0; $j < $setMany; $j++) {
                    $i = $pick();
                    $i = $ns === null ? ($i % 4 === 3 ? $i - 1 : $i) : ($i - $i % 4 + 3);
                    if ($i >= $nkeys) {
                        continue;
                    }
                    [$k, $kns] = key_of($i);
                    $batch[$k] = make_value(ident($k, $kns), ++$seq, $w);
                }
                if ($batch && $S->setMany($batch, $ns) !== true) {
                    $opt['allow-oom'] ? $send("F\n") : $fail('setMany returned false');
                }
            } else {                                            // getMany
                $byNs = [];
                for ($j = 0; $j < 8; $j++) {
                    [$k, $ns] = key_of($pick());
                    $byNs[$ns ?? ''][] = $k;
                }
                foreach ($byNs as $ns => $keys) {
                    $ns = $ns === '' ? null : $ns;
                    foreach ($S->getMany($keys, $ns) as $k => $v) {
                        if (($err = verify_value(ident((string) $k, $ns), $v)) !== null) {
                            $fail("getMany $k: $err");
                        }
                    }
                }
            }
        } catch (Throwable $e) {
            $fail('op ' . $r . ' threw ' . get_class($e) . ': ' . $e->getMessage());
        }
        $ops++;
        if (($ops & $every) === 0) {
            $now = microtime(true);
            if ($now - $last >= 0.02) {
                $last = $now;
                $send("p $ops\n");
                if ($now > $hardStop || (function_exists('posix_getppid') && posix_getppid() !== $supervisor)) {
                    exit(0);   // never outlive the run or the supervisor
                }
            }
        }
    }
}

// ---- the probe -----------------------------------------------------------------------------------------

/*
 * Shm\Table's own counts against a scan ($perNs: namespace => entries seen by fullscan()). Returns
 * [mismatches, stats(), bytes held by entries (sum of memory() over namespaces)].
 */
function table_consistency(array $perNs): array
{
    $st = Shm\Table::stats();
    $nsList = array_merge([null], Shm\Table::namespaces());
    $sumMem = 0;
    $sumCount = 0;
    $mism = [];
    foreach (array_keys($perNs) as $name) {
        if ($name !== '' && !in_array((string) $name, $nsList, true)) {
            $mism[] = "fullscan() yields namespace '$name' that namespaces() does not list";
        }
    }
    foreach ($nsList as $ns) {
        $name = $ns ?? '';
        $cnt = Shm\Table::count($ns);
        $mem = Shm\Table::memory($ns);
        $keys = Shm\Table::keys(null, $ns);
        $sumMem += $mem;
        $sumCount += $cnt;
        // Bytes of each entry from the scan: one allocator block holding a 64-byte entry header, the key
        // padded to 8 and the value (getWithMeta's length), plus the 16-byte block header, rounded up to
        // 16; the allocator may hand out one 16-byte granule more when the rest is too small to split
        // (core/segment.h, core/alloc.c).
        $lo = 0;
        foreach ($keys as $k) {
            $m = Shm\Table::getWithMeta((string) $k, $ns);
            if ($m === false) {
                $mism[] = "keys('$name') lists $k but getWithMeta misses it";
                continue;
            }
            $lo += (16 + 64 + ((strlen((string) $k) + 7) & ~7) + $m[1]['length'] + 15) & ~15;
        }
        $hi = $lo + 16 * count($keys);
        if ($cnt !== count($keys) || $cnt !== ($perNs[$name] ?? 0)) {
            $mism[] = "ns '$name': count() $cnt, keys() " . count($keys) . ', fullscan ' . ($perNs[$name] ?? 0);
        }
        if (($st['namespaces'][$name]['count'] ?? 0) !== $cnt || ($st['namespaces'][$name]['memory'] ?? 0) !== $mem) {
            $mism[] = "ns '$name': stats() says " . json_encode($st['namespaces'][$name] ?? null) . ", count()/memory() $cnt/$mem";
        }
        if ($mem < $lo || $mem > $hi) {
            $mism[] = "ns '$name': memory() $mem outside [$lo, $hi] computed from its entries";
        }
    }
    if ($sumCount !== $st['entries']) {
        $mism[] = "stats() entries {$st['entries']}, sum of count() over namespaces $sumCount";
    }
    if ($st['memory_used'] < $sumMem + $st['retired_bytes']) {
        $mism[] = "memory_used {$st['memory_used']} < entries $sumMem + retired {$st['retired_bytes']}";
    }
    return [$mism, $st, $sumMem];
}

/* Runs in a child after every worker is dead. Sends one JSON line: the checks and the numbers. */
function probe(Subject $S, $sock, array $opt): void
{
    $checks = [];
    $add = function (bool $ok, string $what, string $detail = '') use (&$checks) {
        $checks[] = [$ok, $what, $detail];
    };
    $isTable = $S instanceof TableSubject;
    $nkeys = $opt['keys'];
    $info0 = $S->info();   // before it reads or writes: the run's own counters (those of the dead folded in)

    // 1. every key, read directly
    $present = [];
    $bad = [];
    for ($i = 0; $i < $nkeys; $i++) {
        [$k, $ns] = key_of($i);
        $v = $S->get($k, $ns);
        if ($v !== null) {
            $present[ident($k, $ns)] = true;
            if (($err = verify_value(ident($k, $ns), $v)) !== null) {
                $bad[] = "$k: $err";
            }
        }
    }
    $counters = [];
    for ($c = 0; $c < $opt['counters']; $c++) {
        $v = $S->get("ctr$c", null);
        $counters[$c] = $v;
        if ($v !== null) {
            $present[ident("ctr$c", null)] = true;
            if (!is_int($v)) {
                $bad[] = "ctr$c holds " . get_debug_type($v);
            }
        }
    }
    $add($bad === [], 'probe: every key reads back intact', count($present) . ' present, ' . count($bad) . ' bad'
        . ($bad ? ': ' . implode('; ', array_slice($bad, 0, 5)) : ''));

    // 2. the subject's enumeration finds exactly those keys, and its counts agree
    $scan = $S->scan();
    $scanned = [];
    $perNs = [];
    foreach ($scan as [$ns, $k]) {
        $scanned[ident($k, $ns)] = true;
        $perNs[$ns ?? ''] = ($perNs[$ns ?? ''] ?? 0) + 1;
    }
    $dups = count($scan) - count($scanned);
    $missing = array_diff_key($present, $scanned);
    $extra = array_diff_key($scanned, $present);
    $add($dups === 0 && !$missing && !$extra, 'probe: a full scan yields exactly the keys that get() finds',
        count($scanned) . " scanned, $dups duplicates, " . count($missing) . ' missed by the scan, ' . count($extra)
        . ' only in the scan' . ($extra ? ' (' . implode(', ', array_slice(array_keys($extra), 0, 5)) . ')' : ''));
    $entries = $S->entries();
    $add($entries === count($scan), 'probe: the entry count matches the scan', "entries $entries, scan " . count($scan));

    if ($isTable) {
        [$mism, $st, $sumMem] = table_consistency($perNs);
        $add($mism === [], 'probe: count(), keys(), fullscan(), memory() and stats() agree per namespace; bytes match the entries',
            $mism ? implode('; ', array_slice($mism, 0, 4)) : "{$st['entries']} entries, $sumMem bytes in entries, "
            . "{$st['retired_bytes']} retired, " . ($st['memory_used'] - $st['retired_bytes'] - $sumMem) . ' in neither (blocks of killed writers, not yet collected)');
    }

    // 3. increment every counter once, then write new values everywhere and read them back
    $wbad = [];
    $refused = 0;
    foreach ($counters as $c => $before) {
        $before = $S->get("ctr$c", null);   // again: under eviction it may have gone since step 1
        $n = $S->incr("ctr$c", 1, null);
        if ($n !== ($before ?? 0) + 1) {
            $wbad[] = "ctr$c: " . var_export($before, true) . ' + 1 gave ' . var_export($n, true);
        }
    }
    for ($i = 0; $i < $nkeys; $i++) {
        [$k, $ns] = key_of($i);
        $v = make_value(ident($k, $ns), 2000000000 + $i, 99);
        if ($S->set($k, $v, $ns) !== true) {
            $opt['allow-oom'] ? $refused++ : $wbad[] = "set $k false";
        } elseif (verify_value(ident($k, $ns), $got = $S->get($k, $ns)) !== null || $got != $v) {
            $wbad[] = "$k did not read back";
        }
        $nk = "new$i";
        if ($S->set($nk, $i, $ns) !== true) {
            $opt['allow-oom'] ? $refused++ : $wbad[] = "set $nk false";
        } elseif ($S->get($nk, $ns) !== $i) {
            $wbad[] = "new key $nk did not read back";
        }
    }
    for ($i = 0; $i < $nkeys; $i += 2) {
        [, $ns] = key_of($i);
        if ($S->delete("new$i", $ns) !== true && !$opt['allow-evictions']) {
            $wbad[] = "delete new$i false";
        }
    }
    $expect = $nkeys + ($nkeys - intdiv($nkeys + 1, 2)) + count($counters);
    $entries = $S->entries();
    $scanned = count($S->scan());
    $countsOk = $opt['allow-evictions'] ? $entries === $scanned : $entries === $expect && $scanned === $expect;
    $add($wbad === [] && $countsOk,
        'probe: new writes to every key succeed and read back; counts follow ' . ($opt['allow-evictions'] ? '(entries == scan; evictions allowed)' : 'exactly'),
        ($wbad ? implode('; ', array_slice($wbad, 0, 5)) . '; ' : '') . "$entries entries, $scanned scanned"
        . ($opt['allow-oom'] ? ", $refused writes refused" : ", expected $expect"));

    if ($isTable) {
        $perNs = [];
        foreach (Shm\Table::fullscan() as $ns => $k) {
            $perNs[$ns ?? ''] = ($perNs[$ns ?? ''] ?? 0) + 1;
        }
        [$mism, $st, $sumMem] = table_consistency($perNs);
        $leaked = $st['memory_used'] - $st['retired_bytes'] - $sumMem;
        if (!$st['zero_copy']) {
            $add($mism === [] && $leaked === 0,
                'probe: after the writes every used byte is a live entry or a retired one (the GC took back what killed writers leaked)',
                implode('; ', array_slice($mism, 0, 4)) . "memory_used {$st['memory_used']} = entries $sumMem + retired {$st['retired_bytes']} + $leaked other");
        } else {
            // Entries this probe read zero-copy and then replaced stay allocated, off the retire queue, until
            // it exits: stats() shows them only within held_retired_bytes (which also counts held entries
            // still queued). The exact account, the held list included, is tbl_check's, below.
            $add($mism === [] && $leaked >= 0 && $leaked <= $st['held_retired_bytes'],
                'probe: after the writes every used byte is a live entry, a retired one or a replaced one this probe holds zero-copy',
                implode('; ', array_slice($mism, 0, 4)) . "memory_used {$st['memory_used']} = entries $sumMem + retired {$st['retired_bytes']} + $leaked other, "
                . "held_retired_bytes {$st['held_retired_bytes']}");
        }
        if (function_exists('Shm\__table_test_check')) {
            // Chains, counters, retire queue, held list, allocator: used bytes exactly live + retired.
            $err = Shm\__table_test_check();
            $add($err === '', 'probe: tbl_check is clean after the run (every block a live, retired or held entry; chains, counters, allocator)', $err);
        }
    }
    $info = $S->info();
    $msg = json_encode(['checks' => $checks, 'counters' => $counters, 'info' => $info, 'info0' => $info0], JSON_INVALID_UTF8_SUBSTITUTE) . "\n";
    fwrite($sock, $msg);
}

// ---- all memory back (supervisor, Shm\Table) ------------------------------------------------------------

/* The stats() figures that say where the heap's bytes are. Equal, to the byte, before any worker starts
 * and after the run's clearAll() and reclamation pass: nothing leaked, nothing still held or retired, no
 * free block lost to fragmentation (one free block again), and no process but the supervisor attached. */
const MEMORY_FIGURES = ['entries', 'memory_used', 'memory_free', 'memory_largest_free', 'retired_bytes',
    'held_bytes', 'held_entries', 'held_retired_bytes', 'pins', 'slots_used', 'processes'];
function memory_figures(): array
{
    $st = Shm\Table::stats();
    $out = [];
    foreach (MEMORY_FIGURES as $k) {
        $out[$k] = $st[$k] ?? null;
    }
    return $out;
}

/* Retire queue and held list emptied: a set() and a delete() of one key until reclamation, which runs
 * every 32 retires (core/entry.c, TBL_RECLAIM_EVERY), has freed everything retired (no reader is inside a
 * read any more, so all of it). Returns the rounds it took, or -1 when 200 did not do it. */
function drain_retired(): int
{
    for ($i = 0; $i < 200; $i++) {
        $st = Shm\Table::stats();
        if ($st['retired_bytes'] === 0 && $st['held_retired_bytes'] === 0) {
            return $i;
        }
        Shm\Table::set('chaos-drain', $i);
        Shm\Table::delete('chaos-drain');
    }
    return -1;
}

/* The reclamation pass, in the supervisor once every other process is gone (it never read zero-copy, so
 * it holds nothing itself): stats() releases the reader slots and zero-copy holds of the dead; a fill of
 * twice the table in 512 KB values, whose writes reap the dead readers that still pin retired memory and
 * run the GC of blocks leaked by killed writers; clearAll(); then drain_retired(). */
function reclamation_pass(int $memorySize): array
{
    Shm\Table::stats();
    $fill = str_repeat('f', 1 << 19);
    $refused = 0;
    for ($i = 0, $n = intdiv($memorySize, 1 << 19) * 2 + 8; $i < $n; $i++) {
        $refused += !Shm\Table::set('fill' . ($i % 64), $fill . $i);
    }
    Shm\Table::clearAll();
    return ['writes' => $n, 'refused' => $refused, 'drain' => drain_retired()];
}

// ---- the run -------------------------------------------------------------------------------------------

$S = $SUBJECT;
$W = $opt['workers'] + $opt['readers'];   // worker slots: the --workers, then the --readers
note(sprintf('chaos: %s, %d workers%s, %d keys + %d counters%s, %.1f s of SIGKILLs every %d-%d ms, seed %d, watchdog %.1f s, deadline %d s',
    $S->name(), $opt['workers'], $opt['readers'] ? " + {$opt['readers']} readers holding the arrays they read" : '',
    $opt['keys'], $opt['counters'], VALUE_BYTES ? sprintf(', values of %d-%d bytes', ...VALUE_BYTES) : '',
    $opt['seconds'], $opt['kill-min-ms'], $opt['kill-max-ms'], $opt['seed'], $opt['hang'], $opt['deadline']));
if ($S instanceof TableSubject) {
    $st0 = Shm\Table::stats();
    note(sprintf('chaos: table.memory %d bytes, eviction policy %s, serializer %s, %d reader slots, zero-copy %s',
        $st0['memory_size'], $st0['eviction_policy'], $st0['serializer'], $st0['slots_total'],
        $st0['zero_copy'] ? "on (budget {$st0['zero_copy_budget']} bytes)" : 'off'));
    if ($opt['readers'] > 0 && !$st0['zero_copy']) {
        check(false, 'zero-copy reads are on for the readers', 'stats() says zero_copy is off with table.zero_copy=' . ini_get('table.zero_copy'));
        summary_and_exit();
    }
    if ($opt['segment'] !== '') {
        $opt['segment-size'] = $st0['memory_size'];
        note(sprintf('chaos: named segment %s (%s by this run), workers %s, the probe a separately started PHP',
            $st0['segment_path'], $st0['segment_created'] ? 'created' : 'attached to, not created',
            ['fork' => 'forked', 'exec' => 'started separately', 'mixed' => 'forked (even slots) and started separately (odd slots)'][$opt['spawn']]));
        // The probe counts exactly: data from before this run would be counted as lost or leaked.
        if ($st0['entries'] !== 0) {
            check(false, "the named segment {$st0['segment_path']} is empty at the start",
                "it holds {$st0['entries']} entries; use another --segment or remove the file");
            summary_and_exit();
        }
    }
}
mt_srand($opt['seed']);
// The counters of a named segment outlive runs: a run is judged by what changed during it.
$evictionsBefore = $S instanceof TableSubject ? $st0['evictions'] : 0;
$base = null;
if ($S instanceof TableSubject) {
    // Where every byte is before any worker starts (before this process writes, too). A reused empty
    // segment may still hold the last few retired entries of its last run: drained first, as at the end.
    $drained = drain_retired();
    $base = memory_figures();
    $err = Shm\__table_test_check();
    check($drained >= 0 && $err === '', 'the table is consistent at the start (tbl_check) and holds nothing retired',
        ($err !== '' ? "tbl_check: $err; " : '') . ($drained < 0 ? 'retired memory did not drain; ' : '') . json_encode($base));
}
for ($i = 0; $i < $opt['keys']; $i++) {
    [$k, $ns] = key_of($i);
    $S->set($k, make_value(ident($k, $ns), $i, 100), $ns);
}
for ($c = 0; $c < $opt['counters']; $c++) {
    $S->set("ctr$c", 0, null);
}
$stFilled = $S->info();   // what the run's counters start from

$t0 = microtime(true);
$end = $t0 + $opt['seconds'];
$hardStop = $t0 + $opt['deadline'];
$workers = [];      // slot => ['pid', 'sock', 'buf', 'last', 'ops', 'intent', 'gen', 'born']
$kills = 0;
$respawns = 0;
$opsDone = 0;
$errors = [];
$errorCount = 0;
$oomWrites = 0;
$unexpected = [];
$hangs = [];
$suspects = [];     // slot => when it was suspected of hanging: not SIGKILLed until it completes an operation
$cleared = 0;       // suspects that then completed an operation
$confirmed = array_fill(0, $opt['counters'], 0);
$slack = array_fill(0, $opt['counters'], 0);
$gen = 0;
$execStarts = 0;    // worker incarnations started separately (--spawn exec or mixed)

function sockets_of(array $workers): array
{
    return array_values(array_filter(array_map(fn($x) => $x['sock'], $workers), 'is_resource'));
}
$start_worker = function (int $w) use (&$workers, &$gen, &$execStarts, $S, $opt, $hardStop) {
    global $SUPERVISOR;
    $g = ++$gen;
    if ($opt['spawn'] === 'exec' || ($opt['spawn'] === 'mixed' && $w % 2 === 1)) {
        // It attaches to the named segment itself, while the other workers are being killed.
        [$pid, $sock] = start_php(php_child_argv($opt, 'worker', ['--slot', $w, '--gen', $g,
            '--supervisor', $SUPERVISOR, '--hard-stop', sprintf('%.3f', $hardStop)]));
        $execStarts++;
    } else {
        [$pid, $sock] = spawn(function ($sock) use ($S, $w, $g, $opt, $hardStop) {
            global $SUPERVISOR;
            worker($S, $sock, $w, $g, $opt, $SUPERVISOR, $hardStop);
        }, sockets_of($workers));
    }
    $now = microtime(true);
    // The watchdog clock belongs to the slot, not the incarnation: a respawned worker has to complete
    // operations to count as progress, so a table that wedges every newcomer is still seen as a hang.
    $workers[$w] = ['pid' => $pid, 'sock' => $sock, 'buf' => '', 'last' => $workers[$w]['last'] ?? $now, 'ops' => 0,
        'intent' => null, 'gen' => $g, 'born' => $now];
};
/* Handle the complete lines a worker sent. */
$consume = function (int $w, string $data) use (&$workers, &$opsDone, &$errors, &$errorCount, &$confirmed, &$oomWrites) {
    $x = &$workers[$w];
    $x['buf'] .= $data;
    while (($nl = strpos($x['buf'], "\n")) !== false) {
        $line = substr($x['buf'], 0, $nl);
        $x['buf'] = substr($x['buf'], $nl + 1);
        if ($x['intent'] !== null) {            // any line after an intent but X confirms that increment
            if ($line !== 'X') {
                $confirmed[$x['intent'][0]] += $x['intent'][1];
            }
            $x['intent'] = null;
        }
        switch ($line[0] ?? '') {
            case 'p':
                $n = (int) substr($line, 2);
                if ($n > $x['ops']) {           // progress = operations completed, not just being alive
                    $opsDone += $n - $x['ops'];
                    $x['ops'] = $n;
                    $x['last'] = microtime(true);
                }
                break;
            case 'I':
                [, $c, $by] = explode(' ', $line);
                $x['intent'] = [(int) $c, (int) $by];
                break;
            case 'F':
            case 'X':
                $oomWrites++;
                break;
            case 'E':
                $errorCount++;
                if (count($errors) < 20) {
                    $errors[] = "worker $w (pid {$x['pid']}): " . substr($line, 2);
                }
                break;
            default:
                $errorCount++;
                $errors[] = "worker $w: garbled message " . json_encode(substr($line, 0, 60));
        }
    }
};
/* Read what is left of a dead worker's socket and account for its unconfirmed increment. */
$bury = function (int $w) use (&$workers, $consume, &$slack) {
    $x = &$workers[$w];
    $until = microtime(true) + 1.0;
    while (is_resource($x['sock']) && microtime(true) < $until) {
        $r = [$x['sock']];
        $wr = $ex = null;
        if (@stream_select($r, $wr, $ex, 0, 100000) > 0) {
            $d = fread($x['sock'], 65536);
            if ($d === '' || $d === false) {
                break;                          // EOF
            }
            $consume($w, $d);
        }
    }
    if ($x['intent'] !== null) {                // it may or may not have been applied
        $slack[$x['intent'][0]] += $x['intent'][1];
        $x['intent'] = null;
    }
    if (is_resource($x['sock'])) {
        fclose($x['sock']);
    }
    forget_proc($x['pid']);
};
/* Describe where a process is stuck, from /proc. */
function where_is(int $pid): string
{
    $wchan = @file_get_contents("/proc/$pid/wchan");
    $stat = @file_get_contents("/proc/$pid/stat");
    $state = $stat !== false && preg_match('/\) (\S)/', $stat, $m) ? $m[1] : '?';
    $sys = @file_get_contents("/proc/$pid/syscall");
    $sysno = $sys !== false ? strtok($sys, ' ') : '?';
    return "state $state, wchan " . ($wchan !== false && $wchan !== '' ? $wchan : '?') . ", syscall $sysno"
        . ($sysno === '202' ? ' (futex: waiting for a lock)' : '');
}

for ($w = 0; $w < $W; $w++) {
    $start_worker($w);
}
$nextKill = microtime(true) + mt_rand($opt['kill-min-ms'], $opt['kill-max-ms']) / 1000;
$lastStatus = microtime(true);
$hung = false;
// What the checks below ask of the run: as many SIGKILLs as --seconds gives at the longest interval, and
// some progress. A loaded machine that has not got there by $end runs on, within the global deadline
// (which still leaves the probe its time), rather than failing for being slow.
$minKills = max(10, (int) ($opt['seconds'] * 1000 / $opt['kill-max-ms']));
$minOps = VALUE_BYTES === null ? 1000 : 200;   // large values: milliseconds an operation
$extendUntil = $end + max(0.0, min(40.0, $opt['deadline'] - $opt['seconds'] - $opt['probe-timeout'] - 15));
// A suspect is judged before the run ends (within --hang seconds of its suspicion, and the global deadline).
while (!$hung && (($now = microtime(true)) < $end || (($kills < $minKills || $opsDone <= $minOps) && $now < $extendUntil)
        || ($suspects && $now < $extendUntil + 2 * $opt['hang']))) {
    $read = sockets_of($workers);
    $wr = $ex = null;
    $wait = max(0.0, min($nextKill, max($now < $end ? $end : $extendUntil, $suspects ? $extendUntil + 2 * $opt['hang'] : 0.0)) - $now);
    if ($read && @stream_select($read, $wr, $ex, 0, (int) min(50000, $wait * 1e6)) > 0) {
        foreach ($read as $s) {
            foreach ($workers as $w => $x) {
                if ($x['sock'] === $s) {
                    $d = fread($s, 65536);
                    if ($d !== '' && $d !== false) {
                        $consume($w, $d);
                    }
                    break;
                }
            }
        }
    }
    // a worker that died on its own (a crash, a fatal error) is a failure; it is respawned
    while (($pid = pcntl_waitpid(-1, $st, WNOHANG)) > 0) {
        unset($CHILDREN[$pid]);
        foreach ($workers as $w => $x) {
            if ($x['pid'] === $pid) {
                $how = pcntl_wifsignaled($st) ? 'signal ' . pcntl_wtermsig($st) : 'exit ' . pcntl_wexitstatus($st);
                $unexpected[] = "worker $w (pid $pid) died on its own: $how";
                $bury($w);
                $start_worker($w);
                $respawns++;
            }
        }
    }
    $now = microtime(true);
    if ($now >= $nextKill && ($w = array_rand(array_diff_key($workers, $suspects) ?: [-1 => null])) >= 0) {
        $pid = $workers[$w]['pid'];
        posix_kill($pid, SIGKILL);
        pcntl_waitpid($pid, $st);
        unset($CHILDREN[$pid]);
        if (pcntl_wifsignaled($st) && pcntl_wtermsig($st) === SIGKILL) {
            $kills++;
        } else {
            $unexpected[] = "worker $w (pid $pid) had already ended before its SIGKILL: exit " . pcntl_wexitstatus($st);
        }
        $bury($w);
        $start_worker($w);
        $respawns++;
    }
    if ($now >= $nextKill) {
        $nextKill = microtime(true) + mt_rand($opt['kill-min-ms'], $opt['kill-max-ms']) / 1000;
    }
    foreach ($workers as $w => $x) {
        if (isset($suspects[$w]) && $x['last'] > $suspects[$w]) {
            unset($suspects[$w]);               // it completes operations when it is not killed first
            $cleared++;
        } elseif (isset($suspects[$w]) ? $now - $suspects[$w] > $opt['hang'] : $now - $x['last'] > $opt['hang']) {
            if (!isset($suspects[$w])) {
                $suspects[$w] = $now;           // spare it from SIGKILLs and give it --hang seconds more
                continue;
            }
            $hangs[] = sprintf('worker slot %d (pid %d, alive %.2f s, %d ops) completed no operation for %.1f s, the last %.1f s of them spared from SIGKILLs: %s',
                $w, $x['pid'], max(0.0, $now - $x['born']), $x['ops'], $now - $x['last'], $now - $suspects[$w], where_is($x['pid']));
            $hung = true;
        }
    }
    if ($opt['v'] && $now - $lastStatus >= 1.0) {
        $lastStatus = $now;
        note(sprintf('  %.1f s: %d SIGKILLs, %d ops, %d errors', $now - $t0, $kills, $opsDone, $errorCount));
    }
}
$runTime = microtime(true) - $t0;
if ($hung) {
    // Give the others the same chance to show whether they are stuck too, then report them all.
    foreach ($workers as $w => $x) {
        $where = where_is($x['pid']);
        note("  worker $w (pid {$x['pid']}): $where");
    }
}
// stop: every worker is SIGKILLed mid-operation one last time
foreach ($workers as $w => $x) {
    posix_kill($x['pid'], SIGKILL);
}
foreach ($workers as $w => $x) {
    pcntl_waitpid($x['pid'], $st);
    unset($CHILDREN[$x['pid']]);
    if (pcntl_wifsignaled($st) && pcntl_wtermsig($st) === SIGKILL) {
        $kills++;
    } else {
        $unexpected[] = "worker $w (pid {$x['pid']}) had already ended before the final SIGKILL";
    }
    $bury($w);
}

note(sprintf('chaos: %d SIGKILLs survived, %d operations in %.1f s (%d/s), %d errors reported by workers%s%s',
    $kills, $opsDone, $runTime, $opsDone / max($runTime, 0.001), $errorCount,
    $opt['allow-oom'] ? ", $oomWrites writes refused (set()/setMany() false)" : '',
    $opt['spawn'] !== 'fork' ? "; $execStarts of " . ($respawns + $W) . ' worker incarnations started separately' : ''));
foreach ($errors as $e) {
    note("  error: $e");
}
foreach ($unexpected as $u) {
    note("  $u");
}
foreach ($hangs as $h) {
    note("  HANG: $h");
}
check($hangs === [], "no operation hangs (watchdog: a worker slot that completes no operation for {$opt['hang']} s, then for {$opt['hang']} s more spared from SIGKILLs)",
    implode('; ', array_filter([$hangs ? count($hangs) . ' hung worker(s)' : '',
        $cleared ? "$cleared slot(s) were slow to complete an operation under SIGKILLs, and did once spared" : ''])));
check($kills >= $minKills || $hung,
    'the supervisor SIGKILLed workers throughout the run', "$kills SIGKILLs in " . sprintf('%.1f s', $runTime));
check($opsDone > $minOps, 'the workers made progress', "$opsDone operations in " . sprintf('%.1f s', $runTime));
check($errorCount === 0, 'no value failed its checksum and no operation failed during the run', "$errorCount errors");
check($unexpected === [], 'no worker died except by SIGKILL', count($unexpected) . ' unexpected');

// ---- the probe, with its own deadline ------------------------------------------------------------------

if ($opt['segment'] !== '') {
    // A process that shares nothing with this run but the name: it maps the segment on its own.
    [$ppid, $psock] = start_php(php_child_argv($opt, 'probe', []));
} else {
    [$ppid, $psock] = spawn(function ($sock) use ($S, $opt) {
        probe($S, $sock, $opt);
    }, []);
}
$pdata = '';
$pdeadline = microtime(true) + $opt['probe-timeout'];
$probeEof = false;
while (microtime(true) < $pdeadline) {
    $r = [$psock];
    $wr = $ex = null;
    if (@stream_select($r, $wr, $ex, 0, 100000) > 0) {
        $d = fread($psock, 1 << 20);
        if ($d === '' || $d === false) {
            $probeEof = true;
            break;
        }
        $pdata .= $d;
    }
}
if (!$probeEof) {
    $where = where_is($ppid);
    posix_kill($ppid, SIGKILL);
}
pcntl_waitpid($ppid, $pst);
unset($CHILDREN[$ppid]);
forget_proc($ppid);
$probe = $probeEof ? json_decode(trim($pdata), true) : null;
if (!check($probeEof, "the probe finished within {$opt['probe-timeout']} s",
    $probeEof ? '' : "killed after {$opt['probe-timeout']} s; it was at: $where")) {
    check(false, 'the probe reported its results');
} elseif (!is_array($probe)) {
    check(false, 'the probe reported its results', 'exit status ' . $pst . ': ' . substr($pdata, 0, 300));
} else {
    foreach ($probe['checks'] as [$ok, $what, $detail]) {
        check($ok, $what, $detail);
    }
    $info = $probe['info'];
    if ($opt['segment'] !== '') {
        // What it attached to is the run's segment (same file, same creation), not a new one; and the
        // supervisor and the probe are the only processes it counts: the reader slots of every worker
        // killed, forked or started separately, have been released (attaching releases those of dead
        // processes; so may the probe's writes, before it reports).
        $seen = array_intersect_key($info, array_flip(['segment_path', 'segment_created', 'start_time', 'processes']));
        check(($info['segment_path'] ?? null) === $st0['segment_path'] && ($info['segment_created'] ?? null) === false
            && ($info['start_time'] ?? null) === $st0['start_time'] && ($info['processes'] ?? null) === 2,
            'probe: the separately started probe attached to the segment of the run (did not create one), and counts 2 processes attached: the supervisor and itself',
            json_encode($seen) . "; the run's: {$st0['segment_path']}, start_time {$st0['start_time']}");
    }
    $evictions = ($info['evictions'] ?? 0) - $evictionsBefore;
    $evicted = $evictions > 0 || ($info['expunges'] ?? 0) > 0;
    $cbad = [];
    foreach ($probe['counters'] as $c => $v) {
        $lo = $confirmed[$c];
        $hi = $confirmed[$c] + $slack[$c];
        if ($evicted ? ($v !== null && ($v < 0 || $v > $hi)) : ($v === null || $v < $lo || $v > $hi)) {
            $cbad[] = "ctr$c = " . var_export($v, true) . " not in [$lo, $hi]";
        }
    }
    check($cbad === [], 'every counter equals the increments the workers saw complete, plus at most the ones in flight when they were killed'
        . ($evicted ? ' (upper bound only: entries were evicted)' : ''),
        $cbad ? implode('; ', array_slice($cbad, 0, 4)) : array_sum($confirmed) . ' confirmed, ' . array_sum($slack) . ' in flight at a kill');
    if (isset($info['lock_repairs']) && !$opt['allow-evictions']) {
        // The table is many times larger than the data, but the entries replaced during the run stay
        // retired while a killed reader's slot pins them: the heap fills up with them. A writer must then
        // reap the dead readers and reuse that memory, never evict a live entry.
        check($evictions === 0, 'no live entry was evicted: memory pinned by killed readers was reaped, not made up for by eviction',
            "evictions {$evictions}" . ($evictionsBefore ? " during the run ({$info['evictions']} in the segment's life)" : ''));
    }
    $run = fn(string $k): int => ($probe['info0'][$k] ?? 0) - ($stFilled[$k] ?? 0);   // during the run
    if ($opt['readers'] > 0 && isset($info['zero_copy_reads'])) {
        check($run('zero_copy_reads') > 0, 'arrays were read zero-copy during the run (by readers and writers, each held until its reader was killed)',
            $run('zero_copy_reads') . ' zero-copy reads, ' . ($run('hits') - $run('zero_copy_reads')) . ' other hits (strings, counters, arrays past the budget)');
    }
    if ($opt['large'] && isset($info['evictions'])) {
        check($run('evictions') > 0, 'the table was under memory pressure during the run (entries were evicted)',
            $run('evictions') . ' evictions' . ($opt['allow-oom'] ? ', ' . $run('oom') . ' writes refused' : ''));
    }
    if (isset($info['lock_repairs'])) {
        note(sprintf('chaos: lock repairs %d, slots used %d/%d, evictions %d, oom %d, retired bytes %d, entries %d',
            $info['lock_repairs'], $info['slots_used'], $info['slots_total'], $info['evictions'], $info['oom'],
            $info['retired_bytes'], $info['entries']));
    } else {
        note('chaos: subject info ' . json_encode($info));
    }
}

// ---- all memory back -------------------------------------------------------------------------------------

if ($base !== null) {
    // Every worker and the probe are gone: clearAll(), the reclamation pass, and every byte where it was.
    $removed = Shm\Table::clearAll();
    $pass = reclamation_pass($st0['memory_size']);
    $after = memory_figures();
    $diff = [];
    foreach (MEMORY_FIGURES as $k) {
        if ($after[$k] !== $base[$k]) {
            $diff[] = "$k {$after[$k]}, at the start {$base[$k]}";
        }
    }
    check($removed > 0 && $pass['drain'] >= 0 && $diff === [],
        'after clearAll() and a reclamation pass the memory is what it was before the run, to the byte (used, free, largest free block, retired, held; no slot but the supervisor\'s)',
        ($diff ? implode('; ', $diff) . '; ' : "memory_used {$after['memory_used']}, memory_free {$after['memory_free']}, largest free {$after['memory_largest_free']}; ")
        . "clearAll() removed $removed; {$pass['refused']} of {$pass['writes']} writes of 512 KB refused while filling; "
        . ($pass['drain'] >= 0 ? "retired memory drained in {$pass['drain']} set/delete rounds" : 'retired memory did not drain in 200 rounds'));
    $err = Shm\__table_test_check();
    check($err === '', 'tbl_check is clean at the end', $err);
}
pcntl_alarm(0);
kill_everything();
summary_and_exit();
