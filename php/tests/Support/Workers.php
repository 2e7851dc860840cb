<?php

declare(strict_types=1);

namespace Shm\Cache\Tests\Support;

use Shm\Table;

/**
 * Forks real worker processes that share the table with the test, as PHP-FPM workers would. Each worker
 * waits at a barrier (a table key) so that they start together, runs its job, and reports its result
 * through a pipe. Bounded: a worker that is not released within 120 s, or that does not report within
 * 120 s, fails the test instead of hanging it (bounds for a hang, far past what a loaded machine takes).
 */
final class Workers
{
    /**
     * @param callable(int): mixed $job run in each of $n children with the child's index
     * @return list<mixed> what each child's job returned, by index
     */
    public static function run(int $n, callable $job, string $ns = 'tests-barrier'): array
    {
        if (!\function_exists('pcntl_fork')) {
            throw new \RuntimeException('pcntl is needed to fork workers');
        }
        $barrier = 'go-' . getmypid() . '-' . bin2hex(random_bytes(4));
        $children = [];
        for ($i = 0; $i < $n; $i++) {
            $pair = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
            $pid = pcntl_fork();
            if ($pid === -1) {
                throw new \RuntimeException('fork failed');
            }
            if ($pid === 0) {
                fclose($pair[0]);
                $code = 0;
                try {
                    // A bound for a parent that died, not a guess at how long forking the rest takes on
                    // a loaded machine.
                    $deadline = microtime(true) + 120;
                    while (Table::get($barrier, $ns) === null) {
                        if (microtime(true) > $deadline) {
                            throw new \RuntimeException('barrier never opened');
                        }
                        usleep(1000);
                    }
                    $out = ['ok' => $job($i)];
                } catch (\Throwable $e) {
                    $out = ['error' => \get_class($e) . ': ' . $e->getMessage()];
                    $code = 1;
                }
                fwrite($pair[1], serialize($out));
                fclose($pair[1]);
                // Skip destructors and shutdown functions of the parent's objects (PHPUnit's among them).
                posix_kill(getmypid(), SIGKILL);
                exit($code);
            }
            fclose($pair[1]);
            $children[$i] = [$pid, $pair[0]];
        }
        Table::set($barrier, true, 600, $ns);
        $results = [];
        $errors = [];
        foreach ($children as $i => [$pid, $sock]) {
            stream_set_timeout($sock, 120);
            $data = stream_get_contents($sock);
            fclose($sock);
            pcntl_waitpid($pid, $status);
            $out = $data === '' || $data === false ? ['error' => 'no report'] : unserialize($data);
            if (isset($out['error'])) {
                $errors[] = "worker $i: " . $out['error'];
            } else {
                $results[$i] = $out['ok'];
            }
        }
        Table::delete($barrier, $ns);
        if ($errors !== []) {
            throw new \RuntimeException(implode("\n", $errors));
        }
        return $results;
    }
}
