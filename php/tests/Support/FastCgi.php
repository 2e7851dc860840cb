<?php

declare(strict_types=1);

namespace Shm\Cache\Tests\Support;

/**
 * The smallest FastCGI client that php-fpm answers (FastCGI 1.0, the responder role): one GET request
 * per connection, what a web server in front of the pool would send, and the response split into
 * status, headers and body. Enough for tests; no keep-alive, no request body, no multiplexing.
 */
final class FastCgi
{
    private const VERSION = 1;
    private const BEGIN_REQUEST = 1;
    private const END_REQUEST = 3;
    private const PARAMS = 4;
    private const STDIN = 5;
    private const STDOUT = 6;
    private const STDERR = 7;
    private const RESPONDER = 1;
    private const REQUEST_ID = 1;

    /** @param string $address a stream socket address: "unix:///path/fpm.sock" or "tcp://127.0.0.1:9000" */
    public function __construct(private readonly string $address, private readonly float $timeout = 30.0)
    {
    }

    /**
     * GET $script (an absolute path the pool may run) with $query as its query string.
     *
     * @param array<string, scalar> $query
     * @return array{status: int, headers: array<string, string>, body: string, stderr: string}
     */
    public function get(string $script, array $query = []): array
    {
        $qs = http_build_query($query);
        $uri = '/' . basename($script) . ($qs === '' ? '' : "?$qs");
        $params = [
            'GATEWAY_INTERFACE' => 'FastCGI/1.0',
            'SERVER_SOFTWARE' => 'table-tests',
            'SERVER_PROTOCOL' => 'HTTP/1.1',
            'SERVER_NAME' => 'localhost',
            'SERVER_PORT' => '80',
            'REMOTE_ADDR' => '127.0.0.1',
            'REQUEST_METHOD' => 'GET',
            'SCRIPT_FILENAME' => $script,
            'SCRIPT_NAME' => '/' . basename($script),
            'REQUEST_URI' => $uri,
            'DOCUMENT_URI' => '/' . basename($script),
            'DOCUMENT_ROOT' => \dirname($script),
            'QUERY_STRING' => $qs,
            'CONTENT_LENGTH' => '0',
        ];
        $encoded = '';
        foreach ($params as $name => $value) {
            $encoded .= self::length(\strlen($name)) . self::length(\strlen($value)) . $name . $value;
        }

        $sock = @stream_socket_client($this->address, $errno, $errstr, $this->timeout);
        if ($sock === false) {
            throw new \RuntimeException("FastCGI: cannot connect to $this->address: $errstr ($errno)");
        }
        try {
            stream_set_timeout($sock, (int) ceil($this->timeout));
            // keep-conn flag 0: php-fpm closes the connection after the response
            self::write($sock, self::record(self::BEGIN_REQUEST, pack('nCx5', self::RESPONDER, 0))
                . self::record(self::PARAMS, $encoded) . self::record(self::PARAMS, '')
                . self::record(self::STDIN, ''));

            $stdout = $stderr = '';
            while (true) {
                $header = self::read($sock, 8);
                $h = unpack('Cversion/Ctype/nid/nlength/Cpadding/Creserved', $header);
                $content = self::read($sock, $h['length'] + $h['padding']);
                $content = substr($content, 0, $h['length']);
                if ($h['type'] === self::STDOUT) {
                    $stdout .= $content;
                } elseif ($h['type'] === self::STDERR) {
                    $stderr .= $content;
                } elseif ($h['type'] === self::END_REQUEST) {
                    break;
                }
            }
        } finally {
            fclose($sock);
        }

        [$head, $body] = array_pad(explode("\r\n\r\n", $stdout, 2), 2, '');
        $headers = [];
        foreach (explode("\r\n", $head) as $line) {
            if (str_contains($line, ':')) {
                [$name, $value] = explode(':', $line, 2);
                $headers[strtolower(trim($name))] = trim($value);
            }
        }
        $status = isset($headers['status']) ? (int) $headers['status'] : 200;
        return ['status' => $status, 'headers' => $headers, 'body' => $body, 'stderr' => $stderr];
    }

    private static function record(int $type, string $content): string
    {
        return pack('CCnnCx', self::VERSION, $type, self::REQUEST_ID, \strlen($content), 0) . $content;
    }

    /** A name-value pair's length: one byte below 128, else four with the top bit set. */
    private static function length(int $n): string
    {
        return $n < 128 ? \chr($n) : pack('N', $n | 0x80000000);
    }

    /** @param resource $sock */
    private static function write($sock, string $data): void
    {
        while ($data !== '') {
            $n = fwrite($sock, $data);
            if ($n === false || $n === 0) {
                throw new \RuntimeException('FastCGI: the connection closed while sending the request');
            }
            $data = substr($data, $n);
        }
    }

    /** @param resource $sock */
    private static function read($sock, int $n): string
    {
        $data = '';
        while (\strlen($data) < $n) {
            $chunk = fread($sock, $n - \strlen($data));
            if ($chunk === false || $chunk === '') {
                $why = stream_get_meta_data($sock)['timed_out'] ? 'timed out' : 'closed';
                throw new \RuntimeException("FastCGI: the connection $why before the end of the response");
            }
            $data .= $chunk;
        }
        return $data;
    }
}
