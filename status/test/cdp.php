<?php
/*
 * status/test/cdp.php - a small driver of headless Chromium through the DevTools protocol on a pipe
 * (--remote-debugging-pipe: JSON messages ending in a NUL byte, the browser reading fd 3 and writing fd 4),
 * so that status/test/check.php can click the page's buttons as a user would: no WebSocket, no Node.
 *
 *   $b = new Cdp($chromium, $profileDir);
 *   $b->navigate($url); $b->eval('document.title'); $b->click('button[data-action=delete]'); $b->close();
 *
 * Dialogs (the page's confirm()) are accepted and recorded; uncaught exceptions and console errors (CSP
 * violations among them) are recorded in $errors. Every wait has a generous deadline: it only bounds a
 * hung browser, it is never what a test checks.
 */
final class Cdp
{
    public array $errors = [];
    public array $dialogs = [];
    /** HTTP status of the last document (main frame) response */
    public ?int $status = null;

    private $proc;
    private $in;
    private $out;
    private string $buf = '';
    private int $id = 0;
    private array $events = [];
    private ?string $session = null;

    public function __construct(string $chromium, string $profile, string $log)
    {
        $cmd = [$chromium, '--headless', '--no-sandbox', '--disable-gpu', '--no-first-run',
            '--disable-background-networking', '--disable-component-update', '--disable-sync',
            '--disable-dev-shm-usage', '--hide-scrollbars', "--user-data-dir=$profile", '--remote-debugging-pipe',
            '--window-size=1280,1500', 'about:blank'];
        $this->proc = proc_open($cmd, [0 => ['file', '/dev/null', 'r'], 1 => ['file', $log, 'a'], 2 => ['file', $log, 'a'],
            3 => ['pipe', 'r'], 4 => ['pipe', 'w']], $pipes);
        if (!$this->proc) {
            throw new RuntimeException("cannot start $chromium");
        }
        $this->in = $pipes[3];
        $this->out = $pipes[4];
        $target = $this->send('Target.createTarget', ['url' => 'about:blank'], 120.0)['targetId'];
        $this->session = $this->send('Target.attachToTarget', ['targetId' => $target, 'flatten' => true])['sessionId'];
        foreach (['Page.enable', 'Runtime.enable', 'Network.enable', 'Log.enable'] as $m) {
            $this->send($m);
        }
    }

    /** Send a command (to the page's session once attached) and return its result. */
    public function send(string $method, array $params = [], float $timeout = 60.0): array
    {
        $id = ++$this->id;
        $msg = ['id' => $id, 'method' => $method, 'params' => (object) $params];
        if ($this->session !== null && !str_starts_with($method, 'Target.')) {
            $msg['sessionId'] = $this->session;
        }
        fwrite($this->in, json_encode($msg) . "\0");
        $end = microtime(true) + $timeout;
        while (true) {
            $m = $this->read($end);
            if ($m === null) {
                throw new RuntimeException("no answer to $method");
            }
            if (($m['id'] ?? null) === $id) {
                if (isset($m['error'])) {
                    throw new RuntimeException("$method: " . json_encode($m['error']));
                }
                return $m['result'] ?? [];
            }
        }
    }

    /** Wait for an event (one already received counts); returns its params or null at the deadline. */
    public function waitEvent(string $method, float $timeout = 60.0): ?array
    {
        $end = microtime(true) + $timeout;
        while (true) {
            foreach ($this->events as $i => $e) {
                if ($e['method'] === $method) {
                    unset($this->events[$i]);
                    return $e['params'] ?? [];
                }
            }
            if ($this->read($end) === null) {
                return null;
            }
        }
    }

    public function navigate(string $url): bool
    {
        $this->events = [];
        $this->status = null;
        $this->send('Page.navigate', ['url' => $url]);
        return $this->waitEvent('Page.loadEventFired') !== null;
    }

    /** Evaluate an expression in the page; its value (JSON-able). */
    public function eval(string $js): mixed
    {
        $r = $this->send('Runtime.evaluate', ['expression' => $js, 'returnByValue' => true, 'awaitPromise' => true]);
        if (isset($r['exceptionDetails'])) {
            throw new RuntimeException('evaluate: ' . json_encode($r['exceptionDetails']));
        }
        return $r['result']['value'] ?? null;
    }

    /** Click an element that submits a form, and wait for the page that answers to load. */
    public function clickAndWait(string $selector): bool
    {
        $this->events = [];
        $this->status = null;
        $ok = $this->eval('(function(){var e=document.querySelector(' . json_encode($selector) . ');if(!e)return false;e.click();return true;})()');
        return $ok === true && $this->waitEvent('Page.loadEventFired') !== null;
    }

    /** Poll an expression until it is truthy (or the deadline passes); returns its last value. */
    public function waitFor(string $js, float $timeout = 60.0): mixed
    {
        $end = microtime(true) + $timeout;
        do {
            $v = $this->eval($js);
            if ($v) {
                return $v;
            }
            usleep(100000);
        } while (microtime(true) < $end);
        return $v;
    }

    public function close(): void
    {
        if ($this->proc) {
            try {
                $this->send('Browser.close', [], 10.0);
            } catch (Throwable $e) {
                // already gone
            }
            $st = proc_get_status($this->proc);
            if ($st['running']) {
                posix_kill($st['pid'], SIGTERM);
            }
            fclose($this->in);
            fclose($this->out);
            proc_close($this->proc);
            $this->proc = null;
        }
    }

    public function __destruct()
    {
        $this->close();
    }

    /* One message, or null at the deadline. Events are handled and queued on the way. */
    private function read(float $end): ?array
    {
        while (($p = strpos($this->buf, "\0")) === false) {
            $left = $end - microtime(true);
            if ($left <= 0) {
                return null;
            }
            $r = [$this->out];
            $w = $x = null;
            if (@stream_select($r, $w, $x, (int) $left, (int) (fmod($left, 1) * 1e6)) < 1) {
                continue;
            }
            $chunk = fread($this->out, 65536);
            if ($chunk === '' || $chunk === false) {
                return null;   // the browser exited
            }
            $this->buf .= $chunk;
        }
        $m = json_decode(substr($this->buf, 0, $p), true);
        $this->buf = substr($this->buf, $p + 1);
        if (isset($m['method'])) {
            $this->event($m);
        }
        return $m;
    }

    private function event(array $m): void
    {
        $p = $m['params'] ?? [];
        switch ($m['method']) {
            case 'Page.javascriptDialogOpening':
                $this->dialogs[] = $p['message'] ?? '';
                // Answered without waiting: the click that opened it is still waiting for its own answer.
                fwrite($this->in, json_encode(['id' => ++$this->id, 'method' => 'Page.handleJavaScriptDialog',
                    'params' => ['accept' => true], 'sessionId' => $this->session]) . "\0");
                break;
            case 'Runtime.exceptionThrown':
                $this->errors[] = $p['exceptionDetails']['exception']['description'] ?? ($p['exceptionDetails']['text'] ?? 'exception');
                break;
            case 'Log.entryAdded':
                if (($p['entry']['level'] ?? '') === 'error' && !str_contains($p['entry']['text'] ?? '', 'status of 403')) {
                    $this->errors[] = $p['entry']['text'] ?? 'console error';
                }
                break;
            case 'Network.responseReceived':
                if (($p['type'] ?? '') === 'Document') {
                    $this->status = (int) ($p['response']['status'] ?? 0);
                }
                break;
        }
        $this->events[] = $m;
    }
}
