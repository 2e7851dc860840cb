<?php

declare(strict_types=1);

namespace Shm\Cache\Tests\Support;

/**
 * A php-fpm of the PHP running the tests, started for a test: one pool, pm = static, listening on a unix
 * socket in a directory of its own, with a php.ini of its own and no scanned ini dir (so only the
 * extensions given are loaded, the table.so under test among them). As root, the pool runs as root (-R).
 * stop() ends it and its workers, by pid; php/tests/run.sh also stops one left running (pid file in
 * $TABLE_FPM_DIR), should PHPUnit die first.
 */
final class Fpm
{
    /** @var resource */
    private $process;
    private int $pid;
    private FastCgi $client;
    private string $bin;

    /**
     * The php-fpm binary of this PHP: the same version and extension build (API, thread safety, debug), so
     * that the table.so built for this PHP loads in it. Looked for as stress/fpm/run.sh looks (php-fpmX.Y
     * or php-fpm on PATH or in /usr/sbin), and in the sbin/ beside a source build's bin/php. Null when
     * there is none; $why then says what was looked for and what was found.
     */
    public static function find(?string &$why = null): ?string
    {
        $v = PHP_MAJOR_VERSION . '.' . PHP_MINOR_VERSION;
        $dirs = array_merge([\dirname(PHP_BINARY, 2) . '/sbin'], explode(PATH_SEPARATOR, (string) getenv('PATH')),
            ['/usr/sbin', '/usr/local/sbin']);
        $dirs = array_values(array_unique(array_filter($dirs, static fn (string $d): bool => $d !== '')));
        ob_start();
        phpinfo(INFO_GENERAL);
        $want = self::build((string) ob_get_clean());
        $tried = [];
        foreach (["php-fpm$v", 'php-fpm'] as $name) {
            foreach ($dirs as $dir) {
                $bin = "$dir/$name";
                if (isset($tried[$bin]) || !is_file($bin) || !is_executable($bin)) {
                    continue;
                }
                $has = self::build((string) shell_exec(escapeshellarg($bin) . ' -n -i 2>/dev/null'));
                if ($has === $want) {
                    return $bin;
                }
                $tried[$bin] = "$bin is PHP $has";
            }
        }
        $why = "no php-fpm of this PHP (PHP $want) as php-fpm$v or php-fpm in " . implode(':', $dirs)
            . ($tried === [] ? '' : '; found only ' . implode(', ', $tried))
            . (PHP_BINARY === '/usr/bin/php' . $v && is_file('/etc/debian_version') ? "; Debian: apt-get install php$v-fpm" : '');
        return null;
    }

    /** "8.2.36 API20220829,NTS": the version and extension build of a phpinfo() in text. */
    private static function build(string $info): string
    {
        preg_match('/^PHP Version => (.*)$/m', $info, $version);
        preg_match('/^PHP Extension Build => (.*)$/m', $info, $api);
        return ($version[1] ?? '?') . ' ' . ($api[1] ?? '?');
    }

    /**
     * Start $bin with $children workers in pool "test"; returns once the pool accepts connections.
     *
     * @param array<string, string> $ini php.ini settings; 'extension' may be a list
     */
    public static function start(string $bin, string $dir, array $ini, int $children = 2): self
    {
        if (!is_dir($dir) && !mkdir($dir, 0700, true)) {
            throw new \RuntimeException("cannot create $dir");
        }
        $socket = "$dir/fpm.sock";
        if (\strlen($socket) > 100) {   // sun_path holds 108 bytes
            $socket = sys_get_temp_dir() . '/table-fpm-' . getmypid() . '.sock';
        }
        @unlink($socket);
        $lines = [];
        foreach ($ini as $name => $value) {
            foreach ((array) $value as $v) {
                $lines[] = "$name = \"$v\"";
            }
        }
        file_put_contents("$dir/php.ini", implode("\n", $lines) . "\n");
        $root = \function_exists('posix_getuid') && posix_getuid() === 0;
        file_put_contents("$dir/fpm.conf", implode("\n", [
            '[global]',
            "pid = $dir/fpm.pid",
            "error_log = $dir/fpm-error.log",
            'daemonize = no',
            '[test]',
            $root ? "user = root\ngroup = root" : '',
            "listen = $socket",
            'pm = static',
            "pm.max_children = $children",
            'catch_workers_output = yes',
            'decorate_workers_output = no',
            '',
        ]));

        $cmd = [$bin, '-F', '-y', "$dir/fpm.conf", '-c', "$dir/php.ini"];
        if ($root) {
            $cmd[] = '-R';
        }
        $out = ['file', "$dir/fpm-stdout.log", 'a'];
        // No conf.d of the system (no installed table.so, no other extension): PHP_INI_SCAN_DIR names an
        // empty directory, as proc_open() leaves out a variable whose value is empty.
        @mkdir("$dir/conf.d");
        $process = proc_open($cmd, [0 => ['file', '/dev/null', 'r'], 1 => $out, 2 => $out], $pipes, $dir, ['PHP_INI_SCAN_DIR' => "$dir/conf.d"]);
        if ($process === false) {
            throw new \RuntimeException("cannot start $bin");
        }
        $fpm = new self($process, proc_get_status($process)['pid'], new FastCgi("unix://$socket"), realpath($bin) ?: $bin);
        // The bound is for a machine under heavy load; a started php-fpm listens within a second.
        $deadline = microtime(true) + 60;
        while (true) {
            $sock = @stream_socket_client("unix://$socket", $errno, $errstr, 1);
            if ($sock !== false) {
                fclose($sock);
                return $fpm;
            }
            if (!proc_get_status($process)['running'] || microtime(true) > $deadline) {
                $fpm->stop();
                throw new \RuntimeException("php-fpm did not start ($cmd[0]): " . trim(implode(' | ', array_slice(array_merge(
                    @file("$dir/fpm-stdout.log", FILE_IGNORE_NEW_LINES) ?: [],
                    @file("$dir/fpm-error.log", FILE_IGNORE_NEW_LINES) ?: [],
                ), -6))));
            }
            usleep(50000);
        }
    }

    /** @param resource $process */
    private function __construct($process, int $pid, FastCgi $client, string $bin)
    {
        $this->process = $process;
        $this->pid = $pid;
        $this->client = $client;
        $this->bin = $bin;
    }

    /** @see FastCgi::get() */
    public function get(string $script, array $query = []): array
    {
        return $this->client->get($script, $query);
    }

    /** The master's pid. */
    public function pid(): int
    {
        return $this->pid;
    }

    /** @return list<int> the pids of the master's workers */
    public function workers(): array
    {
        $pids = [];
        foreach (glob('/proc/[0-9]*/stat') ?: [] as $stat) {
            // "pid (comm) state ppid ...": comm may hold spaces, so read after its closing parenthesis.
            $s = @file_get_contents($stat);
            if ($s !== false && (int) explode(' ', substr($s, strrpos($s, ')') + 2))[1] === $this->pid) {
                $pids[] = (int) $s;
            }
        }
        sort($pids);
        return $pids;
    }

    /** SIGQUIT (graceful), then SIGKILL for the master and its workers after 10 s. Idempotent. */
    public function stop(): void
    {
        if (!\is_resource($this->process)) {
            return;
        }
        $workers = $this->workers();
        proc_terminate($this->process, 3);   // SIGQUIT
        $deadline = microtime(true) + 10;
        while (proc_get_status($this->process)['running'] && microtime(true) < $deadline) {
            usleep(50000);
        }
        if (proc_get_status($this->process)['running']) {
            proc_terminate($this->process, 9);
        }
        // Workers left without their master; a pid that no longer runs php-fpm is someone else's now.
        foreach ($workers as $pid) {
            if (@readlink("/proc/$pid/exe") === $this->bin && \function_exists('posix_kill')) {
                posix_kill($pid, 9);
            }
        }
        proc_close($this->process);
    }

    public function __destruct()
    {
        $this->stop();
    }
}
