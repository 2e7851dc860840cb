<?php

declare(strict_types=1);

namespace Shm\Bench\Eviction;

use RuntimeException;

/**
 * A redis-server or memcached of the benchmark's own, on a free loopback port, with the memory budget,
 * started in the foreground under proc_open and stopped (by its own process handle) when done.
 */
final class Server
{
    /** @var resource|null */
    private $process = null;

    private function __construct(public readonly string $kind, public readonly int $port)
    {
    }

    public static function start(string $kind, int $budgetBytes, string $logDir): self
    {
        $server = new self($kind, self::freePort());
        $mb = max(1, intdiv($budgetBytes, 1024 * 1024));
        $command = match ($kind) {
            'redis' => ['redis-server', '--port', (string) $server->port, '--bind', '127.0.0.1', '--save', '',
                        '--appendonly', 'no', '--maxmemory', "{$mb}mb", '--maxmemory-policy', 'allkeys-lru'],
            'memcached' => ['memcached', '-l', '127.0.0.1', '-p', (string) $server->port, '-U', '0', '-m', (string) $mb,
                            ...(function_exists('posix_geteuid') && posix_geteuid() === 0 ? ['-u', 'nobody'] : [])],
        };
        $binary = trim((string) shell_exec('command -v ' . escapeshellarg($command[0])));
        if ($binary === '') {
            throw new RuntimeException("$command[0] is not installed");
        }
        $log = "$logDir/$kind-{$server->port}.log";
        $server->process = proc_open($command, [0 => ['file', '/dev/null', 'r'], 1 => ['file', $log, 'w'], 2 => ['file', $log, 'a']], $pipes);
        if (!is_resource($server->process)) {
            throw new RuntimeException("could not start $command[0]");
        }
        for ($i = 0; $i < 100; $i++) {
            $socket = @stream_socket_client("tcp://127.0.0.1:{$server->port}", $errno, $error, 0.1);
            if ($socket !== false) {
                fclose($socket);

                return $server;
            }
            usleep(50000);
        }
        $server->stop();
        throw new RuntimeException("$command[0] did not answer on port {$server->port} (log: $log)");
    }

    public function stop(): void
    {
        if (is_resource($this->process)) {
            proc_terminate($this->process);
            proc_close($this->process);
        }
        $this->process = null;
    }

    private static function freePort(): int
    {
        $socket = stream_socket_server('tcp://127.0.0.1:0', $errno, $error);
        if ($socket === false) {
            throw new RuntimeException("no free port: $error");
        }
        $name = stream_socket_get_name($socket, false);
        fclose($socket);

        return (int) substr((string) $name, strrpos((string) $name, ':') + 1);
    }
}
