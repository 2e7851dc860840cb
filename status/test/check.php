<?php
/*
 * status/test/check.php - serve status/table-status.php with `php -S` (the extension loaded) and load it in
 * headless Chromium:
 *   - the page's script runs to its end and raises no error; Chromium logs no uncaught exception and
 *     no Content-Security-Policy violation;
 *   - every figure on the page (data-stat / data-value) equals the same figure of stats() as the server
 *     process sees it, read right before and right after the page (the page itself counts nothing);
 *   - the per-namespace table lists every namespace with its entries, bytes and TTL'd entries;
 *   - hostile keys, namespace names and values (markup, invalid UTF-8) show up as text, never as elements;
 *   - the key browser lists a namespace's keys, hides values by default and shows them (escaped) when
 *     configured to;
 *   - a request forwarded by a proxy, and one from a non-loopback address, get 403;
 *   - table-status.php?format=prometheus serves metrics() with the Prometheus content type, the figures
 *     of stats(), output promtool accepts (when installed), and the same access rule;
 *   - a screenshot is written (--screenshot FILE).
 * --readme-shot FILE then fills the table like a busy cache (fixture.php?seed=demo) and takes the
 * the screenshot of the main page in status/README.md.
 *
 *   php status/test/check.php --so build/release/modules/table.so [--screenshot build/ci/observe/status.png]
 *                             [--chromium /usr/bin/chromium]
 *
 * Prints `ok - ...` / `FAIL - ...` per check and, last, `observe: N passed, N failed`.
 */

$opt = getopt('', ['so:', 'screenshot:', 'readme-shot:', 'docs-shots:', 'chromium:', 'keep']);
$so = $opt['so'] ?? '';
$shot = $opt['screenshot'] ?? null;
$chromium = $opt['chromium'] ?? (trim((string) shell_exec('command -v chromium || command -v chromium-browser')) ?: '/usr/bin/chromium');
$root = dirname(__DIR__, 2);

$passed = $failed = 0;
function check(bool $ok, string $what, string $detail = ''): bool
{
    global $passed, $failed;
    $ok ? $passed++ : $failed++;
    echo $ok ? 'ok   - ' : 'FAIL - ', $what, (!$ok && $detail !== '') ? ": $detail" : '', "\n";
    return $ok;
}
function finish(): never
{
    global $passed, $failed, $cleanup;
    foreach (array_reverse($cleanup) as $fn) {
        $fn();
    }
    echo "observe: $passed passed, $failed failed\n";
    exit($failed ? 1 : 0);
}
$cleanup = [];

if (!is_file($so)) {
    check(false, 'table.so given with --so', "no such file: '$so'");
    finish();
}
if (!class_exists('DOMDocument')) {
    check(false, 'ext/dom loaded (it reads the page Chromium rendered)', 'Debian: apt-get install php-xml');
    finish();
}
if (!is_executable($chromium)) {
    check(false, 'chromium installed', "$chromium not found (Debian: apt-get install chromium)");
    finish();
}

/* ---- a document root with the page and the test fixtures ----------------------------------------- */
$tmp = sys_get_temp_dir() . '/table-status-check-' . getmypid();
@mkdir("$tmp/docroot", 0700, true);
copy("$root/status/table-status.php", "$tmp/docroot/table-status.php");
copy(__DIR__ . '/fixture.php', "$tmp/docroot/fixture.php");
copy(__DIR__ . '/values.php', "$tmp/docroot/values.php");
copy(__DIR__ . '/admin.php', "$tmp/docroot/admin.php");
require __DIR__ . '/cdp.php';
$cleanup[] = function () use ($tmp) {
    if (!isset($GLOBALS['opt']['keep'])) {
        exec('rm -rf ' . escapeshellarg($tmp));
    }
};

function free_port(string $host): int
{
    $s = stream_socket_server("tcp://$host:0");
    $name = stream_socket_get_name($s, false);
    fclose($s);
    return (int) substr($name, strrpos($name, ':') + 1);
}

/* Start `php -S host:port`; returns its base URL once it accepts connections. $workers > 1: that many
 * forked workers (PHP_CLI_SERVER_WORKERS), sharing the table as php-fpm's do. */
function serve(string $host, string $tmp, string $so, array $ini = [], int $workers = 1): ?string
{
    global $cleanup;
    $port = free_port($host);
    $cmd = [PHP_BINARY, '-d', "extension=$so", '-d', 'table.memory=32M', '-d', 'display_errors=stderr'];
    foreach ($ini as $setting) {
        array_push($cmd, '-d', $setting);
    }
    array_push($cmd, '-S', "$host:$port", '-t', "$tmp/docroot");
    $env = getenv();
    unset($env['PHP_CLI_SERVER_WORKERS']);
    if ($workers > 1) {
        $env['PHP_CLI_SERVER_WORKERS'] = (string) $workers;
    }
    $p = proc_open($cmd, [0 => ['file', '/dev/null', 'r'], 1 => ['file', "$tmp/server-$host.log", 'a'],
        2 => ['file', "$tmp/server-$host.log", 'a']], $pipes, null, $env);
    if (!$p) {
        return null;
    }
    $cleanup[] = function () use ($p) {
        $st = proc_get_status($p);
        if ($st['running']) {
            // The forked workers too: they outlive a master that gets SIGTERM.
            foreach (glob('/proc/[0-9]*/stat') ?: [] as $stat) {
                $line = (string) @file_get_contents($stat);
                if ($line !== '' && (int) explode(' ', substr($line, strrpos($line, ')') + 2))[1] === $st['pid']) {
                    posix_kill((int) $line, SIGTERM);
                }
            }
            posix_kill($st['pid'], SIGTERM);
        }
        proc_close($p);
    };
    $h = str_contains($host, ':') ? "[$host]" : $host;
    // Poll until it accepts, for up to a minute: a refused connection returns at once, so a count of
    // tries alone would give a loaded machine only a few seconds to start the server. A server that
    // exited gives up at once.
    for ($end = microtime(true) + 60; microtime(true) < $end && proc_get_status($p)['running']; ) {
        $c = @stream_socket_client("tcp://$h:$port", $e, $es, 0.2);
        if ($c) {
            fclose($c);
            return "http://$h:$port";
        }
        usleep(50000);
    }
    return null;
}

/* GET a URL: [status, body]. The timeout only catches a server that never answers. */
function http_get(string $url, array $headers = [], float $timeout = 60): array
{
    $ctx = stream_context_create(['http' => ['ignore_errors' => true, 'timeout' => $timeout,
        'header' => implode("\r\n", $headers)]]);
    $body = @file_get_contents($url, false, $ctx);
    $status = 0;
    $GLOBALS['last_headers'] = $http_response_header ?? [];
    foreach ($http_response_header ?? [] as $h) {
        if (preg_match('#^HTTP/\S+ (\d+)#', $h, $m)) {
            $status = (int) $m[1];
        }
    }
    return [$status, (string) $body];
}

/* Run headless Chromium on a URL with extra arguments; returns [stdout, stderr, exit]. */
function chromium(string $url, array $args): array
{
    global $chromium, $tmp;
    static $n = 0;
    $profile = "$tmp/profile" . $n++;
    $cmd = array_merge([$chromium, '--headless', '--no-sandbox', '--disable-gpu', '--no-first-run',
        '--disable-background-networking', '--disable-component-update', '--disable-sync',
        '--disable-dev-shm-usage', '--hide-scrollbars', "--user-data-dir=$profile", '--enable-logging=stderr', '--v=0',
        '--virtual-time-budget=3000'], $args, [$url]);
    $p = proc_open($cmd, [0 => ['file', '/dev/null', 'r'], 1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
    $out = stream_get_contents($pipes[1]);
    $err = stream_get_contents($pipes[2]);
    $rc = proc_close($p);
    return [$out, $err, $rc];
}

/* Console errors Chromium logged: uncaught exceptions and CSP violations. */
function console_errors(string $stderr): array
{
    $bad = [];
    foreach (explode("\n", $stderr) as $line) {
        if (preg_match('/Uncaught|Refused to|Content Security Policy|SyntaxError|ReferenceError|TypeError/', $line)) {
            $bad[] = trim(substr($line, 0, 300));
        }
    }
    return $bad;
}

function dom(string $html): DOMXPath
{
    $d = new DOMDocument();
    libxml_use_internal_errors(true);
    $d->loadHTML('<?xml encoding="utf-8"?>' . $html, LIBXML_NONET);
    libxml_clear_errors();
    return new DOMXPath($d);
}

/*
 * The memory bar's parts as the page must compute them from stats() $s: live entries are what the
 * namespaces hold; held, the retired entries zero-copy readers hold (held_retired_bytes: in the retire
 * queue or moved out of it); retired, the rest of memory used (the retire queue's entries nobody holds).
 */
function memory_parts(array $s): array
{
    $live = array_sum(array_column($s['namespaces'], 'memory'));
    $held = $s['held_retired_bytes'] ?? 0;
    $parts = ['part_live' => (string) $live, 'part_retired' => (string) ($s['memory_used'] - $live - $held),
        'part_free' => (string) $s['memory_free'], 'part_meta' => (string) ($s['memory_size'] - $s['memory_used'] - $s['memory_free'])];
    if (isset($s['held_retired_bytes'])) {
        $parts['part_held'] = (string) $held;
    }
    return $parts;
}

/* data-stat => data-value of every figure outside the namespace and key tables. */
function page_figures(DOMXPath $x): array
{
    $f = [];
    foreach ($x->query('//*[@data-stat][not(ancestor::table)]') as $el) {
        $f[$el->getAttribute('data-stat')] = $el->getAttribute('data-value');
    }
    return $f;
}

/* ---- the server -------------------------------------------------------------------------------------- */
$spawned = time();
$base = serve('127.0.0.1', $tmp, $so);
if (!check($base !== null, 'php -S serves the folder', @file_get_contents("$tmp/server-127.0.0.1.log") ?: '')) {
    finish();
}
[$st, $body] = http_get("$base/fixture.php?seed=1");
$seed = json_decode($body, true);
if (!check($st === 200 && !empty($seed['seeded']), 'the fixture seeds the table', "HTTP $st: " . substr($body, 0, 300))) {
    finish();
}
$before = json_decode(http_get("$base/fixture.php?stats=1")[1], true);

/* ---- the main page ------------------------------------------------------------------------------------ */
[$html, $err, $rc] = chromium("$base/table-status.php", ['--dump-dom']);
$after = json_decode(http_get("$base/fixture.php?stats=1")[1], true);
check($rc === 0 && str_contains($html, 'Shm\\Table status'), 'chromium loads the page', "exit $rc; " . substr($err, -500));
$x = dom($html);
$body = $x->query('//body')->item(0);
check($body && $body->getAttribute('data-js') === 'ok', "the page's script ran to its end",
    $body ? 'data-js=' . $body->getAttribute('data-js') : 'no body');
check($body && !$body->hasAttribute('data-js-errors'), 'no JavaScript error on the page',
    $body ? $body->getAttribute('data-js-errors') : '');
$ce = console_errors($err);
check($ce === [], 'no uncaught exception or CSP violation in the console', implode(' | ', $ce));
check($before == $after, 'loading the page changes no figure of stats()',
    json_encode(array_diff_assoc(array_filter($before, 'is_scalar'), array_filter($after, 'is_scalar'))));

$fig = page_figures($x);
$s = $after;
$expect = [];
foreach (['hits', 'misses', 'sets', 'deletes', 'evictions', 'expirations', 'oom', 'entries', 'memory_used',
    'memory_free', 'memory_size', 'memory_largest_free', 'retired_bytes', 'slots_used', 'slots_total', 'pins',
    'lock_repairs', 'zero_copy_budget', 'zero_copy_reads', 'copied_reads', 'eviction_policy',
    'serializer'] as $k) {
    $expect[$k] = (string) $s[$k];
}
foreach (['held_bytes', 'held_entries', 'held_retired_bytes', 'gc_runs', 'lock_timeouts', 'start_time'] as $k) {
    if (isset($s[$k])) {
        $expect[$k] = (string) $s[$k];   // figures of core versions that report them
    }
}
$expect['zero_copy'] = $s['zero_copy'] ? '1' : '0';
if (array_key_exists('segment', $s)) {
    $expect['segment'] = (string) $s['segment'];   // '' for the anonymous segment this server has
    $expect['processes'] = (string) $s['processes'];
    $expect['segment_same_base'] = $s['segment_same_base'] ? '1' : '0';
}
$expect['hit_ratio'] = (string) round($s['hits'] / ($s['hits'] + $s['misses']), 4);
$expect['fragmentation'] = (string) round(1 - $s['memory_largest_free'] / $s['memory_free'], 4);
$expect = memory_parts($s) + $expect;
$diff = [];
foreach ($expect as $k => $v) {
    if (($fig[$k] ?? null) !== $v) {
        $diff[] = "$k: page " . var_export($fig[$k] ?? null, true) . ", stats() $v";
    }
}
check($diff === [], 'every figure on the page equals stats() (' . count($expect) . ' figures)', implode('; ', $diff));
// start time and uptime: the segment was created when the server started, before the first request
check(isset($s['start_time'], $fig['start_time'], $fig['uptime']) && $s['start_time'] >= $spawned - 1 && $s['start_time'] <= time()
    && (int) $fig['uptime'] >= 0 && (int) $fig['uptime'] <= time() - $s['start_time'],
    'the page shows the start time of stats() and the uptime since', json_encode([$s['start_time'] ?? null, $fig['start_time'] ?? null, $fig['uptime'] ?? null, $spawned]));
// the INI settings: every table.* setting with the value the server process has
$ini = json_decode(http_get("$base/fixture.php?ini=1")[1], true);
$shown = [];
foreach ($x->query('//table[@id="ini-table"]/tbody/tr') as $tr) {
    $shown[$tr->getAttribute('data-ini')] = $x->query('./td[2]', $tr)->item(0)->getAttribute('data-value');
}
$iniWant = array_map(fn($v) => (string) $v, $ini);
check($iniWant !== [] && $shown === $iniWant && ($shown['table.memory'] ?? null) === '32M', 'the INI settings table lists every table.* setting and its value',
    json_encode($shown) . ' vs ' . json_encode($iniWant));
check($x->query('//form[contains(@class, "act")]')->length === 0 && !str_contains($html, 'name="token"'),
    'actions are off by default: no delete or clear form on the page');
check($s['hits'] === 30 && $s['misses'] === 10 && $fig['hit_ratio'] === '0.75', 'the hit ratio shown is the seeded 30 hits / 10 misses',
    "hits {$s['hits']}, misses {$s['misses']}, page {$fig['hit_ratio']}");

// the memory picture: one rectangle per part, widths proportional to the figures, summing to the segment
$rects = [];
foreach ($x->query('//*[@id="memory-bar"]/*[local-name()="rect"]') as $r) {
    $rects[$r->getAttribute('data-part')] = (float) $r->getAttribute('width');
}
$live = array_sum(array_column($s['namespaces'], 'memory'));
check(isset($rects['live'], $rects['free'], $rects['retired'], $rects['meta']) && abs(array_sum($rects) - 1000) < 0.1
    && abs($rects['live'] - 1000 * $live / $s['memory_size']) < 0.01,
    'the memory bar draws live, retired, free and bookkeeping to scale', json_encode($rects));
check($s['held_retired_bytes'] === 0 && $s['memory_used'] === $live + $s['retired_bytes'],
    'nothing held: memory used is the live entries (the namespaces\' bytes) plus retired_bytes', json_encode([$s['memory_used'], $live, $s['retired_bytes']]));

// the namespace table: every namespace of stats(), with its figures and TTL'd entries
$rows = [];
foreach ($x->query('//table[@id="ns-table"]/tbody/tr') as $tr) {
    $r = [];
    foreach ($x->query('.//*[@data-stat]', $tr) as $el) {
        $r[$el->getAttribute('data-stat')] = (int) $el->getAttribute('data-value');
    }
    $rows[$tr->getAttribute('data-ns')] = $r;
}
$nsdiff = [];
foreach ($s['namespaces'] as $hex => $one) {
    $r = $rows[$hex] ?? null;
    if ($r === null || $r['ns_count'] !== $one['count'] || $r['ns_memory'] !== $one['memory']) {
        $nsdiff[] = "$hex: page " . json_encode($r) . ', stats() ' . json_encode($one);
    }
}
check($nsdiff === [] && count($rows) === count($s['namespaces']), 'the namespace table matches stats()[\'namespaces\'] (' . count($rows) . ' rows)',
    implode('; ', $nsdiff) . ' rows ' . implode(',', array_keys($rows)));
$ttlWant = [bin2hex('users') => 10, '' => 24, $seed['xss_ns'] => 1, $seed['bin_ns'] => 0];
$ttlGot = [];
foreach ($ttlWant as $hex => $n) {
    $ttlGot[$hex] = $rows[$hex]['ns_ttl'] ?? ($rows[$hex]['ns_count'] === 0 ? 0 : null);
}
check($ttlGot == $ttlWant, 'TTL\'d entries per namespace are counted', json_encode($ttlGot));

// sorting: the order in the URL (what a click on a header sets) is applied on load
foreach (['entries-desc' => fn($a, $b) => $b['ns_count'] <=> $a['ns_count'], 'bytes-asc' => fn($a, $b) => $a['ns_memory'] <=> $b['ns_memory']] as $sort => $cmp) {
    [$h] = chromium("$base/table-status.php?sort=$sort", ['--dump-dom']);
    $order = [];
    foreach (dom($h)->query('//table[@id="ns-table"]/tbody/tr') as $tr) {
        $order[$tr->getAttribute('data-ns')] = $rows[$tr->getAttribute('data-ns')];
    }
    $want = $order;
    uasort($want, $cmp);
    check(count($order) === count($rows) && array_keys($order) === array_keys($want) && str_contains($h, 'data-dir="' . explode('-', $sort)[1] . '"'),
        "the namespace table is sorted by ?sort=$sort", implode(',', array_keys($order)));
}

// the page's own headers: a nonce CSP that allows no inline script or style but its own, and no caching
$ctx = stream_context_create(['http' => ['ignore_errors' => true]]);
$page = file_get_contents("$base/table-status.php", false, $ctx);
$hdr = strtolower(implode("\n", $http_response_header));
preg_match("/script-src 'nonce-([a-z0-9+\/=]+)'/", $hdr, $nm);
check(isset($nm[1]) && str_contains($page, 'nonce="') && !str_contains($hdr, 'unsafe-inline') && str_contains($hdr, "default-src 'none'")
    && str_contains($hdr, "frame-ancestors 'none'") && str_contains($hdr, 'x-content-type-options: nosniff')
    && str_contains($hdr, 'cache-control: no-store') && str_contains($hdr, 'referrer-policy: same-origin'),
    'the page sends a nonce Content-Security-Policy, nosniff, no-store and a same-origin referrer policy', $hdr);

// hostile names are text, not markup
$injected = $x->query('//*[@id="xss-ns" or @id="xss-key" or @id="xss-val"] | //body//script[not(@nonce)] | //img');
$text = $x->query('//table[@id="ns-table"]')->item(0)?->textContent ?? '';
check($injected->length === 0 && str_contains($text, '<script id="xss-ns">') && str_contains($text, '\\xff\\xfens'),
    'namespace names with markup or invalid UTF-8 are shown as text', "injected elements: {$injected->length}");

/* ---- the key browser --------------------------------------------------------------------------------- */
[$html, $err] = chromium("$base/table-status.php?ns={$seed['xss_ns']}", ['--dump-dom']);
$x = dom($html);
$keys = [];
foreach ($x->query('//table[@id="key-table"]/tbody/tr') as $tr) {
    $keys[] = hex2bin($tr->getAttribute('data-key'));
}
sort($keys);
$want = ['<img id="xss-key" src=x onerror="document.title=\'pwned\'">', "bin\x00\xff\xfe", "quote\"'&amp;"];
sort($want);
check($keys === $want, 'the key browser lists the namespace\'s keys', json_encode(array_map('bin2hex', $keys)));
$ktext = $x->query('//table[@id="key-table"]')->item(0)?->textContent ?? '';
check(str_contains($ktext, '<img id="xss-key"') && str_contains($ktext, 'bin\\x00\\xff\\xfe')
    && $x->query('//*[@id="xss-key"] | //img')->length === 0 && console_errors($err) === [],
    'hostile keys are shown as text', implode(' | ', console_errors($err)));
check($x->query('//*[@id="values-hidden"]')->length === 1 && !str_contains($html, 'bold</b>') && !str_contains($html, 'binary key'),
    'values are hidden by default');
$after2 = json_decode(http_get("$base/fixture.php?stats=1")[1], true);
check($after2['hits'] === $s['hits'] + count($keys) && $after2['misses'] === $s['misses'],
    'browsing keys counts one hit per listed key (getWithMeta() reads their meta) and no miss',
    "hits {$s['hits']} -> {$after2['hits']} for " . count($keys) . " keys, misses {$s['misses']} -> {$after2['misses']}");

[$html, $err] = chromium("$base/values.php?ns={$seed['xss_ns']}", ['--dump-dom']);
$x = dom($html);
$vtext = $x->query('//table[@id="key-table"]')->item(0)?->textContent ?? '';
check(str_contains($vtext, "'<b id=\"xss-val\">bold</b>'") && str_contains($vtext, 'binary key')
    && $x->query('//*[@id="xss-val"] | //b')->length === 0 && $x->query('//*[@id="values-hidden"]')->length === 0,
    'with TABLE_STATUS_SHOW_VALUES the values are shown, as text', substr($vtext, 0, 300));

// paging: 40 keys at 10 a page
[$html] = chromium("$base/values.php?ns=" . bin2hex('users') . '&match=' . rawurlencode('user:*') . '&page=3', ['--dump-dom']);
$x = dom($html);
$n = $x->query('//table[@id="key-table"]/tbody/tr')->length;
check($n === 10 && str_contains($html, 'Page 4 of 4'), 'the key browser pages (10 a page, page 4 of 4)', "rows $n");
[$html] = chromium("$base/table-status.php?ns=" . bin2hex('users') . '&match=' . rawurlencode('user:1*'), ['--dump-dom']);
$n = dom($html)->query('//table[@id="key-table"]/tbody/tr')->length;
check($n === 11, 'the key browser filters with a glob (user:1* matches 11 keys)', "rows $n");
// values.php sets TABLE_STATUS_BROWSE_MAX to 30: the 40 users are listed only through a filter
[$html] = chromium("$base/values.php?ns=" . bin2hex('users'), ['--dump-dom']);
$x = dom($html);
$n = $x->query('//table[@id="key-table"]/tbody/tr')->length;
[$html2] = chromium("$base/values.php?ns=" . bin2hex('users') . '&match=' . rawurlencode('user:2*'), ['--dump-dom']);
$n2 = dom($html2)->query('//table[@id="key-table"]/tbody/tr')->length;
check($n === 0 && $x->query('//*[@id="too-many"]')->length === 1 && $n2 === 10,
    'a namespace larger than TABLE_STATUS_BROWSE_MAX is listed only through a filter', "rows $n, filtered $n2");

/* ---- access ------------------------------------------------------------------------------------------ */
[$st] = http_get("$base/table-status.php", ['X-Forwarded-For: 203.0.113.9']);
check($st === 403, 'a request forwarded by a proxy gets 403', "HTTP $st");
$ips = preg_split('/\s+/', trim((string) shell_exec('hostname -I 2>/dev/null')));
$ext = null;
foreach ($ips as $ip) {
    if (filter_var($ip, FILTER_VALIDATE_IP, FILTER_FLAG_IPV4) && !str_starts_with($ip, '127.')) {
        $ext = $ip;
        break;
    }
}
if ($ext !== null && ($b2 = serve($ext, $tmp, $so)) !== null) {
    [$st, $body] = http_get("$b2/table-status.php");
    check($st === 403 && str_contains($body, 'not allowed'), "a request from $ext (not loopback) gets 403", "HTTP $st");
    [$st] = http_get("$b2/table-status.php?format=prometheus");
    check($st === 403, "?format=prometheus: a request from $ext (not loopback) gets 403", "HTTP $st");
    // A wrapper that lets $ext scrape: the endpoint answers it, the page still does not.
    file_put_contents("$tmp/docroot/scrape.php", '<?php define("TABLE_STATUS_SCRAPE_ALLOW", ' . var_export($ext, true)
        . '); require __DIR__ . "/table-status.php";');
    [$st, $body] = http_get("$b2/scrape.php?format=prometheus");
    [$st2] = http_get("$b2/scrape.php");
    check($st === 200 && str_contains($body, 'table_hits_total') && $st2 === 403,
        "TABLE_STATUS_SCRAPE_ALLOW lets $ext read ?format=prometheus (200) but not the page (403)", "HTTP $st / $st2");
} else {
    echo "skip - no non-loopback IPv4 address to test a remote client from\n";
}

/* ---- the scrape endpoint --------------------------------------------------------------------------- */
$ctx = stream_context_create(['http' => ['ignore_errors' => true]]);
$prom = (string) file_get_contents("$base/table-status.php?format=prometheus", false, $ctx);
$ctype = '';
foreach ($http_response_header as $h) {
    if (stripos($h, 'content-type:') === 0) {
        $ctype = strtolower(trim(substr($h, 13)));
    }
}
$now = json_decode(http_get("$base/fixture.php?stats=1")[1], true);
preg_match('/^table_hits_total (\d+)$/m', $prom, $hm);
preg_match('/^table_entries (\d+)$/m', $prom, $em);
check(str_starts_with($ctype, 'text/plain; version=0.0.4') && isset($hm[1], $em[1]) && (int) $hm[1] === $now['hits'] && (int) $em[1] === $now['entries'],
    '?format=prometheus serves metrics() as text/plain; version=0.0.4, with the figures of stats()', "$ctype; " . substr($prom, 0, 200));
if (trim((string) shell_exec('command -v promtool 2>/dev/null')) !== '') {
    $p = proc_open(['promtool', 'check', 'metrics'], [0 => ['pipe', 'r'], 1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
    fwrite($pipes[0], $prom);
    fclose($pipes[0]);
    $out = stream_get_contents($pipes[1]) . stream_get_contents($pipes[2]);
    check(proc_close($p) === 0, '?format=prometheus: promtool check metrics accepts what it serves', $out);
} else {
    echo "skip - promtool not installed; the scrape endpoint's output is not linted\n";
}
[$st] = http_get("$base/table-status.php?format=prometheus", ['X-Forwarded-For: 203.0.113.9']);
check($st === 403, '?format=prometheus: a request forwarded by a proxy gets 403', "HTTP $st");
if (($off = serve('127.0.0.1', $tmp, $so, ['table.enabled=0'])) !== null) {
    [$st, $body] = http_get("$off/table-status.php?format=prometheus");
    [$st2, $body2] = http_get("$off/table-status.php");
    check($st === 503 && str_contains($body, 'table.enabled=1') && $st2 === 200 && str_contains($body2, 'Shm\\Table is disabled'),
        'with the table disabled, ?format=prometheus answers 503 and the page says why', "HTTP $st: $body; page HTTP $st2");
}

/* ---- a named segment: the page names it and its file -------------------------------------------------- */
@mkdir("$tmp/segments", 0700);
if (($named = serve('127.0.0.1', $tmp, $so, ['table.segment=status-check', "table.segment_dir=$tmp/segments"])) !== null) {
    $ns = json_decode(http_get("$named/fixture.php?stats=1")[1], true);
    [$html, $err, $rc] = chromium("$named/table-status.php", ['--dump-dom']);
    $f = page_figures(dom($html));
    check($rc === 0 && ($ns['segment'] ?? null) === 'status-check' && ($f['segment'] ?? null) === 'status-check'
        && ($f['segment_path'] ?? null) === "$tmp/segments/php-table.status-check" && ($f['processes'] ?? null) === (string) $ns['processes']
        && ($f['segment_same_base'] ?? null) === ($ns['segment_same_base'] ? '1' : '0'),
        'with table.segment, the page names the segment, its file, the live processes on it and whether it lies at its creator\'s address',
        json_encode([$ns['segment'] ?? null, $ns['segment_path'] ?? null, array_intersect_key($f, array_flip(['segment', 'segment_path', 'processes', 'segment_same_base']))]));
}

/* ---- actions: delete a key, clear a namespace; refused without a token ------------------------------- */

/* POST a form to a URL: [status, body]. */
function http_post(string $url, array $fields, array $headers = []): array
{
    $ctx = stream_context_create(['http' => ['method' => 'POST', 'ignore_errors' => true, 'timeout' => 60, 'follow_location' => 0,
        'header' => implode("\r\n", array_merge(['Content-Type: application/x-www-form-urlencoded'], $headers)),
        'content' => http_build_query($fields)]]);
    $body = @file_get_contents($url, false, $ctx);
    $status = 0;
    $GLOBALS['last_headers'] = $http_response_header ?? [];
    foreach ($http_response_header ?? [] as $h) {
        if (preg_match('#^HTTP/\S+ (\d+)#', $h, $m)) {
            $status = (int) $m[1];
        }
    }
    return [$status, (string) $body];
}
function refused_reason(string $body): ?string
{
    return preg_match('/id="refused" data-reason="([a-z-]+)"/', $body, $m) ? $m[1] : null;
}
/* exists() of a key and count() of its namespace, in the server's table. */
function has(string $base, string $key, string $ns): array
{
    return json_decode(http_get("$base/fixture.php?has=" . bin2hex($key) . '&ns=' . bin2hex($ns))[1], true) ?? [];
}

/* A screenshot of the part of the page from the top of one element to the bottom of another (docs only). */
function shot_of(Cdp $b, string $from, string $to, string $file): void
{
    $r = $b->eval('(function(){var a=document.querySelector(' . json_encode($from) . ').getBoundingClientRect(),'
        . 'z=document.querySelector(' . json_encode($to) . ').getBoundingClientRect();'
        . 'return {y: a.top + window.scrollY - 8, h: z.bottom - a.top + 16};})()');
    file_put_contents($file, base64_decode($b->send('Page.captureScreenshot', ['format' => 'png', 'captureBeyondViewport' => true,
        'clip' => ['x' => 0, 'y' => max(0, $r['y']), 'width' => 1280, 'height' => $r['h'], 'scale' => 1]])['data']));
}

/* Start a browser; once more if the first does not answer (a loaded machine can starve its start). */
function browser(string $chromium, string $dir, string $log): Cdp
{
    try {
        return new Cdp($chromium, $dir, $log);
    } catch (RuntimeException $e) {
        return new Cdp($chromium, "$dir-again", $log);
    }
}

$auth = 'Authorization: Basic ' . base64_encode('admin:s3cret');
$victims = bin2hex('victims');
$doomed = bin2hex('doomed');
[$st] = http_get("$base/fixture.php?seed=admin");
check($st === 200, 'the fixture seeds the table for the actions', "HTTP $st");
$forged = ['action' => 'delete', 'ns' => $victims, 'key' => bin2hex('k1'), 'token' => str_repeat('0', 64)];

// off by default: table-status.php itself refuses any POST, whoever sends it
[$st, $body] = http_post("$base/table-status.php", $forged, [$auth]);
check($st === 403 && refused_reason($body) === 'disabled' && str_contains($body, 'TABLE_STATUS_ACTIONS') && has($base, 'k1', 'victims')['exists'] === true,
    'actions off (the default): a POST is refused with 403 and says how to turn them on; nothing changed', "HTTP $st " . refused_reason($body));
// on, but not authenticated: no forms, a login link, ?login asks for Basic credentials, a POST is refused
[$st, $body] = http_get("$base/admin.php?ns=$victims");
$x = dom($body);
check($st === 200 && $x->query('//form[contains(@class, "act")]')->length === 0 && $x->query('//a[@class="login"]')->length === 1,
    'actions on but no user logged in: no action form, a "log in" link', "HTTP $st");
[$st] = http_get("$base/admin.php?login=1");
$www = implode("\n", $last_headers);
check($st === 401 && stripos($www, 'WWW-Authenticate: Basic') !== false, '?login asks for HTTP Basic credentials (401)', "HTTP $st");
foreach (['no credentials' => [], 'a wrong password' => ['Authorization: Basic ' . base64_encode('admin:guess')]] as $what => $h) {
    [$st, $body] = http_post("$base/admin.php", $forged, $h);
    check($st === 403 && refused_reason($body) === 'unauthenticated' && has($base, 'k1', 'victims')['exists'] === true,
        "actions on, $what: a POST is refused with 403 ('needs an authenticated user'); nothing changed", "HTTP $st " . refused_reason($body));
}
// authenticated, but a form without the session's token (curl has no session cookie): refused
[$st, $body] = http_post("$base/admin.php", $forged, [$auth]);
check($st === 403 && refused_reason($body) === 'token-wrong' && has($base, 'k1', 'victims')['exists'] === true,
    'authenticated, a token that is not the session\'s: 403, nothing changed', "HTTP $st " . refused_reason($body));

// In the browser, logged in as admin (the Authorization header on every request, as after a login).
$b = null;
try {
    $b = browser($chromium, "$tmp/profile-cdp", "$tmp/chromium-cdp.log");
    $b->send('Network.setExtraHTTPHeaders', ['headers' => ['Authorization' => 'Basic ' . base64_encode('admin:s3cret')]]);
    $page = "$base/admin.php?ns=$victims";
    $b->navigate($page);
    $n = $b->eval('document.querySelectorAll("#key-table button[data-action=delete]").length');
    $who = $b->eval('(document.getElementById("user") || {}).textContent || ""');
    check($n === 5 && str_contains((string) $who, 'admin') && $b->errors === [], 'logged in: the key browser has a delete button per key and names the user',
        "buttons $n, user '$who', errors " . implode(' | ', $b->errors));
    $meta = $b->eval('(function(){var r=document.querySelector("#key-table tr[data-key=\"' . bin2hex('k2') . '\"]");'
        . 'var v={};r.querySelectorAll("[data-stat]").forEach(function(e){v[e.getAttribute("data-stat")]=Number(e.getAttribute("data-value"));});return v;})()');
    check(is_array($meta) && $meta['key_length'] > 0 && $meta['key_created'] >= $spawned - 1 && $meta['key_created'] <= time()
        && $meta['key_updated'] >= $meta['key_created'] && $meta['key_ttl'] > 0 && $meta['key_ttl'] <= 900,
        'the key list shows size, created, updated and TTL of each key (k2: set with a TTL of 900 s)', json_encode($meta));

    // 1. the form without its token: refused, nothing deleted
    $b->eval('document.querySelector("#key-table tr[data-key=\"' . bin2hex('k1') . '\"] input[name=token]").remove()');
    $b->clickAndWait('#key-table tr[data-key="' . bin2hex('k1') . '"] button[data-action=delete]');
    $reason = $b->eval('(document.getElementById("refused") || {getAttribute: function(){return null;}}).getAttribute("data-reason")');
    $h = has($base, 'k1', 'victims');
    check($b->status === 403 && $reason === 'token-missing' && $h['exists'] === true && $h['count'] === 5,
        'in Chromium, the delete form without its CSRF token is refused (403, "no CSRF token"); k1 is still there', "HTTP {$b->status}, reason $reason, " . json_encode($h));
    // 2. with a wrong token: refused
    $b->navigate($page);
    $b->eval('document.querySelector("#key-table tr[data-key=\"' . bin2hex('k1') . '\"] input[name=token]").value = "' . str_repeat('a', 64) . '"');
    $b->clickAndWait('#key-table tr[data-key="' . bin2hex('k1') . '"] button[data-action=delete]');
    $reason = $b->eval('(document.getElementById("refused") || {getAttribute: function(){return null;}}).getAttribute("data-reason")');
    $h = has($base, 'k1', 'victims');
    check($b->status === 403 && $reason === 'token-wrong' && $h['exists'] === true && $h['count'] === 5,
        'in Chromium, the delete form with a wrong CSRF token is refused (403); k1 is still there', "HTTP {$b->status}, reason $reason, " . json_encode($h));
    // 3. as it is: asks, deletes k1 only, says so
    $b->navigate($page);
    $dialogs = count($b->dialogs);
    $b->clickAndWait('#key-table tr[data-key="' . bin2hex('k1') . '"] button[data-action=delete]');
    $flash = (string) $b->eval('(document.getElementById("flash") || {}).textContent || ""');
    $h1 = has($base, 'k1', 'victims');
    $h2 = has($base, 'k2', 'victims');
    $rows = $b->eval('document.querySelectorAll("#key-table tbody tr").length');
    check($b->status === 200 && str_contains($flash, 'Deleted key "k1"') && $h1['exists'] === false && $h2['exists'] === true && $h1['count'] === 4 && $rows === 4
        && count($b->dialogs) === $dialogs + 1 && str_contains(end($b->dialogs), 'Delete key "k1"'),
        'in Chromium, delete (after a confirm()) removes k1 and only k1; the page says so and lists 4 keys',
        "HTTP {$b->status}, flash '$flash', " . json_encode([$h1, $h2, $rows, $b->dialogs]) . ' ' . substr((string) $b->eval('document.body.innerText'), 0, 400));
    if (isset($opt['docs-shots'])) {
        shot_of($b, '#flash', '#flash', $opt['docs-shots'] . '/status-action-done.png');
        shot_of($b, '#namespaces', '#keys', $opt['docs-shots'] . '/status-actions.png');
    }
    // 4. clear a namespace from its key browser
    $b->navigate("$base/admin.php?ns=$doomed");
    $b->clickAndWait('#keys h2 button[data-action=clear]');
    $flash = (string) $b->eval('(document.getElementById("flash") || {}).textContent || ""');
    $hd = has($base, 'd0', 'doomed');
    $hv = has($base, 'k2', 'victims');
    check($b->status === 200 && str_contains($flash, 'Cleared namespace "doomed" (30 entries)') && $hd['count'] === 0 && $hd['exists'] === false
        && $hv['count'] === 4 && $hv['bystander'] === 'stays',
        'in Chromium, "clear this namespace" empties doomed (30 entries) and leaves the other namespaces alone', "HTTP {$b->status}, flash '$flash', " . json_encode([$hd, $hv]));
    // 5. a form forged on another origin (another port), posted by its own script: refused
    @mkdir("$tmp/evil", 0700);
    file_put_contents("$tmp/evil/evil.php", '<?php $t = ' . var_export("$base/admin.php", true) . '; ?><!DOCTYPE html><form id="f" method="post" action="<?= htmlspecialchars($t) ?>">'
        . '<input type="hidden" name="action" value="clear"><input type="hidden" name="ns" value="' . $victims . '"></form><script>document.getElementById("f").submit();</script>');
    $eport = free_port('127.0.0.1');
    $ep = proc_open([PHP_BINARY, '-S', "127.0.0.1:$eport", '-t', "$tmp/evil"], [0 => ['file', '/dev/null', 'r'], 1 => ['file', "$tmp/evil.log", 'a'], 2 => ['file', "$tmp/evil.log", 'a']], $pp);
    $cleanup[] = function () use ($ep) { $st = proc_get_status($ep); if ($st['running']) { posix_kill($st['pid'], SIGTERM); } proc_close($ep); };
    for ($i = 0; $i < 100 && !($c = @stream_socket_client("tcp://127.0.0.1:$eport", $e, $es, 0.2)); $i++) {
        usleep(50000);
    }
    $b->navigate("http://127.0.0.1:$eport/evil.php");
    $b->waitEvent('Page.loadEventFired');   // the forged form's answer
    $reason = $b->eval('(document.getElementById("refused") || {getAttribute: function(){return null;}}).getAttribute("data-reason")');
    $hv = has($base, 'k2', 'victims');
    check($b->status === 403 && $reason === 'token-missing' && $hv['count'] === 4,
        'in Chromium, a form forged on another origin that posts "clear" is refused (403); the namespace keeps its 4 keys', "HTTP {$b->status}, reason $reason, " . json_encode($hv));
    check($b->errors === [], 'no JavaScript error or CSP violation while using the actions', implode(' | ', $b->errors));
    $b->close();

    /* ---- the rate chart ---------------------------------------------------------------------------- */
    // A fresh browser (its own sessionStorage) on the page that samples every second; known traffic
    // in between; the chart's intervals must add up to exactly that traffic, whatever their timing.
    $b = browser($chromium, "$tmp/profile-chart", "$tmp/chromium-chart.log");
    $b->navigate("$base/admin.php");
    // The page starts from the sample it was served with, then adds one a second: how many it has by the
    // time we look depends on the machine, so the check is that the chart begins at the served one (no
    // history from elsewhere), not that we looked before the next.
    $first = $b->waitFor('Number(document.getElementById("rates").getAttribute("data-samples"))');
    $served = $b->eval('JSON.parse(document.getElementById("rates").getAttribute("data-sample")).time');
    $done = json_decode(http_get("$base/fixture.php?traffic=1")[1], true)['done'];
    $iv = $b->waitFor('(function(){var iv=JSON.parse(document.getElementById("rates").getAttribute("data-intervals"));'
        . 'return iv.length && iv[iv.length-1].t1 > ' . json_encode($done) . ' ? iv : null;})()');
    $sum = ['hits' => 0, 'misses' => 0, 'sets' => 0];
    $rateOk = true;
    foreach ((array) $iv as $o) {
        foreach ($sum as $k => $_) {
            $sum[$k] += $o[$k];
            $rateOk = $rateOk && abs($o[$k . '_rate'] - $o[$k] / ($o['t1'] - $o['t0'])) < 1e-9;
        }
    }
    check(is_int($first) && $first >= 1 && is_array($iv) && is_numeric($served) && (float) ($iv[0]['t0'] ?? -1) === (float) $served
        && $sum === ['hits' => 20, 'misses' => 7, 'sets' => 50] && $rateOk,
        'the rate chart, sampling ?format=json from the sample the page was served with, counts exactly the 50 sets, 20 hits and 7 misses made meanwhile; each rate is growth / server time',
        json_encode(['first' => $first, 'served' => $served, 'sum' => $sum, 'rates' => $rateOk, 'iv' => $iv]));
    $lines = $b->eval('Array.prototype.map.call(document.querySelectorAll("#rate-chart polyline"), function(p){return p.getAttribute("data-series") + ":" + p.getAttribute("points").split(" ").length;})');
    $legend = $b->eval('document.getElementById("rate-sets").textContent');
    check(is_array($lines) && count($lines) === 3 && is_numeric($legend), 'the chart draws a line for hits, misses and sets and shows the latest rates',
        json_encode([$lines, $legend]));
    [$st, $js] = http_get("$base/table-status.php?format=json");
    $j = json_decode($js, true);
    check($st === 200 && isset($j['time'], $j['hits'], $j['sets'], $j['misses'], $j['start_time']) && $j['start_time'] === $s['start_time'],
        '?format=json serves the counters, the start time and the server time', "HTTP $st $js");
    [$st] = http_get("$base/table-status.php?format=json", ['X-Forwarded-For: 203.0.113.9']);
    check($st === 403, '?format=json: a request forwarded by a proxy gets 403', "HTTP $st");
    check($b->errors === [], 'no JavaScript error or CSP violation while the chart samples', implode(' | ', $b->errors));
    if (isset($opt['docs-shots'])) {
        for ($i = 0; $i < 6; $i++) {     // a little more history for the picture (not a check)
            http_get("$base/fixture.php?traffic=1");
            usleep(700000);
        }
        usleep(1200000);
        shot_of($b, '#rates-section', '#ini', $opt['docs-shots'] . '/status-rates.png');
    }
    $b->close();
} catch (Throwable $e) {
    check(false, 'the browser driver (DevTools protocol on a pipe) runs the action and chart tests', $e->getMessage() . ' ' . @file_get_contents("$tmp/chromium-cdp.log"));
}

/* ---- many namespaces: the namespace table is paged ---------------------------------------------------- */
if (($big = serve('127.0.0.1', $tmp, $so, ['table.memory=64M'])) !== null) {
    $seeded = json_decode(http_get("$big/fixture.php?seed=many")[1], true);
    $n = (int) ($seeded['namespaces'] ?? 0);
    $total = $n + 1;   // and the default namespace
    [$html, $err, $rc] = chromium("$big/table-status.php", ['--dump-dom']);
    $x = dom($html);
    $rows = $x->query('//table[@id="ns-table"]/tbody/tr')->length;
    $pages = (int) ceil($total / 50);
    check($n >= 1000 && $rc === 0 && $rows === 50 && $x->query('//*[@id="ns-pages"]')->item(0)?->textContent === (string) $pages
        && $x->query('//*[@data-stat="namespaces_total"]')->item(0)?->getAttribute('data-value') === (string) $total,
        "$n namespaces on a 64M table (10,000, or the namespace ceiling of the build): the page lists 50 a page, $pages pages, and counts them all", "rc $rc, rows $rows");
    [$html] = chromium("$big/table-status.php?nspage=" . ($pages - 1), ['--dump-dom']);
    $x = dom($html);
    $last = $x->query('//table[@id="ns-table"]/tbody/tr');
    check($last->length === $total - 50 * ($pages - 1) && $last->item($last->length - 1)?->getAttribute('data-ns') === bin2hex(sprintf('tenant%05d', $n - 1)),
        'the last page holds the rest, in name order', "rows {$last->length}");
    [$html] = chromium("$big/table-status.php?sort=entries-desc", ['--dump-dom']);
    $x = dom($html);
    check($x->query('//table[@id="ns-table"]/tbody/tr')->item(0)?->getAttribute('data-ns') === bin2hex('tenant00007'),
        'sorting spans every page: ?sort=entries-desc puts the one namespace of 2 entries first');
    [$html] = chromium("$big/table-status.php?nsq=tenant001", ['--dump-dom']);
    $x = dom($html);
    $want = count(array_filter(range(0, $n - 1), fn($i) => str_starts_with(sprintf('tenant%05d', $i), 'tenant001')));
    check($x->query('//*[@data-stat="namespaces_matching"]')->item(0)?->getAttribute('data-value') === (string) $want
        && $x->query('//table[@id="ns-table"]/tbody/tr')->length === min(50, $want),
        "the namespace filter (?nsq=tenant001) finds the $want matching namespaces");
    if (isset($opt['docs-shots'])) {
        chromium("$big/table-status.php?nspage=3", ['--screenshot=' . $opt['docs-shots'] . '/status-namespaces.png', '--window-size=1280,1900']);
    }
}

/* ---- the memory bar while a zero-copy reader holds a retired entry ------------------------------------ */
// Two server workers share the table, as php-fpm's do: one request reads an array without copying,
// overwrites its key and writes on until reclamation has moved the retired entry out of the retire
// queue to wait for the holder, then stays until released; the other worker serves the page meanwhile.
if (($zc = serve('127.0.0.1', $tmp, $so, ['table.zero_copy=1'], 2)) !== null) {
    $h = parse_url($zc);
    $holder = @stream_socket_client("tcp://{$h['host']}:{$h['port']}", $e, $es, 10);
    $holder && fwrite($holder, "GET /fixture.php?hold=1 HTTP/1.0\r\nHost: {$h['host']}\r\n\r\n");
    $holding = false;
    // A request made before the holder's worker began to run it may be accepted by that worker and wait
    // behind it until the release: each try gives up after 5 s and the next goes on a new connection,
    // which the other worker takes. The 60 s are the bound.
    for ($end = microtime(true) + 60; $holder && !$holding && microtime(true) < $end; usleep(50000)) {
        $holding = (json_decode(http_get("$zc/fixture.php?has=" . bin2hex('holding') . '&ns=' . bin2hex('zc'), [], 5)[1], true)['exists'] ?? false) === true;
    }
    $before = json_decode(http_get("$zc/fixture.php?stats=1")[1], true);
    [$st, $html] = http_get("$zc/table-status.php");
    $after = json_decode(http_get("$zc/fixture.php?stats=1")[1], true);
    http_get("$zc/fixture.php?release=1");
    $held = $holder ? json_decode(explode("\r\n\r\n", (string) stream_get_contents($holder), 2)[1] ?? '', true) : null;
    $holder && fclose($holder);
    $x = dom($html);
    $fig = page_figures($x);
    $s = $after;
    $live = array_sum(array_column($s['namespaces'] ?? [], 'memory'));
    $outOfQueue = $s['memory_used'] - $live - $s['retired_bytes'];
    $memory = fn (?array $s): array => array_intersect_key((array) $s, array_flip(['memory_used', 'memory_free', 'retired_bytes',
        'held_retired_bytes', 'held_bytes', 'namespaces']));
    check($holding && $memory($before) == $memory($after) && $s['held_retired_bytes'] > 0 && $outOfQueue > 0,
        'a zero-copy reader in another worker holds a retired entry that has left the retire queue (the bar\'s case to get right)',
        json_encode(['holding' => $holding, 'changed by the page' => array_diff_assoc(array_filter((array) $before, 'is_scalar'), array_filter((array) $after, 'is_scalar')),
            'held_retired_bytes' => $s['held_retired_bytes'] ?? null,
            'used - live - retired_bytes' => $outOfQueue]));
    $want = memory_parts($s) + ['held_retired_bytes' => (string) $s['held_retired_bytes'],
        'zero_copy_budget_used' => (string) round($s['held_bytes'] / $s['zero_copy_budget'], 4)];
    $diff = [];
    foreach ($want as $k => $v) {
        if (($fig[$k] ?? null) !== $v) {
            $diff[] = "$k: page " . var_export($fig[$k] ?? null, true) . ", stats() $v";
        }
    }
    $rects = [];
    foreach ($x->query('//*[@id="memory-bar"]/*[local-name()="rect"]') as $r) {
        $rects[$r->getAttribute('data-part')] = (float) $r->getAttribute('width');
    }
    check($st === 200 && $diff === [] && abs(array_sum($rects) - 1000) < 0.1 && min($rects) >= 0,
        'with it held, the bar shows live = the namespaces\' bytes, held = held_retired_bytes, retired = the rest of used, summing to the segment; the budget use is held_bytes',
        "HTTP $st; " . implode('; ', $diff) . '; rects ' . json_encode($rects));
    check(($held['intact'] ?? false) === true && ($held['held_entries'] ?? 0) === 1,
        'the holder read its array without a copy and found it intact after the overwrite', json_encode($held));
}

/* ---- the Redis tier's counters ------------------------------------------------------------------------ */
// A build with the tier and a redis-server at hand: a server of the table with a tiered namespace; the
// page's Redis section shows every counter of stats()['redis'] (reads, l1_hits, misses, fills, errors,
// reconnects, failovers, bypasses, ...) as stats() has it. The helper moves only invalidations, flushes and
// the freshness on its own, so those are not compared.
if (isset($after['redis']) && trim((string) shell_exec('command -v redis-server 2>/dev/null'))) {
    $sock = "$tmp/redis.sock";
    $rp = proc_open(['redis-server', '--port', '0', '--unixsocket', $sock, '--unixsocketperm', '700', '--save', '',
        '--appendonly', 'no', '--dir', $tmp], [0 => ['file', '/dev/null', 'r'], 1 => ['file', "$tmp/redis.log", 'a'],
        2 => ['file', "$tmp/redis.log", 'a']], $rpipes);
    $cleanup[] = function () use ($rp) {
        proc_terminate($rp, SIGKILL);
        proc_close($rp);
    };
    for ($end = microtime(true) + 60; microtime(true) < $end && !file_exists($sock); usleep(20000)) {
    }
    $tb = file_exists($sock) ? serve('127.0.0.1', $tmp, $so, ["table.redis=unix://$sock", 'table.redis_namespaces=tiered']) : null;
    if (check($tb !== null, 'a server of a table with a tiered namespace (redis-server on a unix socket)', @file_get_contents("$tmp/redis.log") ?: '')) {
        [$st, $body] = http_get("$tb/fixture.php?tier=1");
        $t = json_decode($body, true);
        [$html, $err, $rc] = chromium("$tb/table-status.php", ['--dump-dom']);
        $s = json_decode(http_get("$tb/fixture.php?stats=1")[1], true)['redis'] ?? [];
        $fig = page_figures(dom($html));
        $diff = [];
        foreach (['reads', 'l1_hits', 'misses', 'fills', 'errors', 'reconnects', 'failovers', 'bypasses', 'helper_starts'] as $k) {
            if (!isset($s[$k]) || ($fig["redis_$k"] ?? null) !== (string) $s[$k]) {
                $diff[] = "$k: page " . var_export($fig["redis_$k"] ?? null, true) . ', stats() ' . var_export($s[$k] ?? null, true);
            }
        }
        check($st === 200 && ($t['found'] ?? 0) === 60 && $rc === 0 && $diff === []
            && $s['reads'] + $s['l1_hits'] === 65 && $s['misses'] === 5,
            "the page's Redis tier section shows stats()['redis']'s counters (60 reads of 20 keys, 5 of missing ones: reads + l1_hits = 65, misses = 5)",
            "HTTP $st, exit $rc; " . implode('; ', $diff) . '; ' . json_encode($s));
    }
}

/* ---- screenshot -------------------------------------------------------------------------------------- */
if ($shot !== null) {
    @mkdir(dirname($shot), 0777, true);
    @unlink($shot);
    [, $err, $rc] = chromium("$base/table-status.php?ns=" . bin2hex('users'), ["--screenshot=$shot", '--window-size=1280,1500']);
    $png = @file_get_contents($shot, false, null, 0, 8);
    check($png === "\x89PNG\r\n\x1a\n", "a screenshot is written to $shot", "exit $rc; " . substr($err, -300));
}

if (isset($opt['readme-shot'])) {
    $f = $opt['readme-shot'];
    [$st] = http_get("$base/fixture.php?seed=demo");
    @unlink($f);
    [, $err, $rc] = chromium("$base/table-status.php", ["--screenshot=$f", '--window-size=1000,1065']);
    check($st === 200 && is_file($f), "the README screenshot is written to $f", "HTTP $st, exit $rc");
}

finish();
