<?php
/*
 * table-status.php - a status page for Shm\Table, in the spirit of APCu's apc.php: drop this one file into
 * any folder PHP serves (it needs nothing else: no assets, no CDN, no framework) and open it in a browser.
 *
 * It shows what Shm\Table::stats() knows: memory as a picture (live entries, retired, held by zero-copy
 * readers, free, fragmentation), hit ratio, evictions and failures, each namespace (entries, bytes,
 * entries with a TTL), attached processes and reader slots, lock repairs and GC runs, the zero-copy state,
 * and a key browser per namespace. See status/README.md.
 *
 * Configuration: edit the defaults below, or define the constants in a file of your own that then
 * includes this one (a wrapper survives an upgrade of this file):
 *
 *     <?php define('TABLE_STATUS_ALLOW', '10.0.0.0/8'); require '/path/to/table-status.php';
 *
 *   TABLE_STATUS_ALLOW        who may see the page besides the local host: '' (nobody else, the default),
 *                             a comma-separated list of IPs and CIDR ranges, or '*' (everyone: put the page
 *                             behind your own authentication then)
 *   TABLE_STATUS_SCRAPE_ALLOW who may read only ?format=prometheus (a scraper on another host), in the
 *                             same format; the page itself stays closed to them (default '')
 *   TABLE_STATUS_SHOW_VALUES  false (the default): the key browser lists keys, TTLs and sizes but never a
 *                             value; true: it shows values too (they may be secrets: sessions, tokens)
 *   TABLE_STATUS_PAGE_SIZE    keys per page in the key browser (default 100)
 *   TABLE_STATUS_TTL_SCAN     namespaces with at most this many entries get their TTL'd entries counted
 *                             (one ttl() call per key); larger ones show "n/a" (default 5000; 0: never)
 *   TABLE_STATUS_BROWSE_MAX   the key browser lists a larger namespace only through a filter, since it
 *                             reads every matching key to sort them (default 100000)
 *
 * The page reads stats() once, first, and does nothing that counts as a hit or a miss unless values are
 * shown in the key browser (reading a value counts as a hit, as any get() does). Everything that comes
 * from the table (keys and namespace names are binary and user-controlled) is escaped, and a strict
 * Content-Security-Policy lets only this page's own inline script and style run.
 *
 * table-status.php?format=prometheus is the scrape endpoint: it answers Shm\Table::metrics() (the figures of
 * stats() in the Prometheus text format, see docs/api.md) as text/plain; version=0.0.4, or 503 with the
 * reason when the table is disabled or unavailable, so that the target shows as down:
 *
 *     scrape_configs:
 *       - job_name: table
 *         metrics_path: /table-status.php
 *         params: { format: [prometheus] }
 *         static_configs: [{ targets: ['app1:80'] }]
 */

defined('TABLE_STATUS_ALLOW') || define('TABLE_STATUS_ALLOW', '');
defined('TABLE_STATUS_SCRAPE_ALLOW') || define('TABLE_STATUS_SCRAPE_ALLOW', '');
defined('TABLE_STATUS_SHOW_VALUES') || define('TABLE_STATUS_SHOW_VALUES', false);
defined('TABLE_STATUS_PAGE_SIZE') || define('TABLE_STATUS_PAGE_SIZE', 100);
defined('TABLE_STATUS_TTL_SCAN') || define('TABLE_STATUS_TTL_SCAN', 5000);
defined('TABLE_STATUS_BROWSE_MAX') || define('TABLE_STATUS_BROWSE_MAX', 100000);

/* ---- access ---------------------------------------------------------------------------------------- */

function ts_ip_in(string $ip, string $rule): bool
{
    $rule = trim($rule);
    if ($rule === '') {
        return false;
    }
    if ($rule === '*') {
        return true;
    }
    [$net, $bits] = array_pad(explode('/', $rule, 2), 2, null);
    $a = @inet_pton($ip);
    $b = @inet_pton($net);
    if ($a === false || $b === false || strlen($a) !== strlen($b)) {
        return false;
    }
    $bits = $bits === null ? strlen($a) * 8 : max(0, min((int) $bits, strlen($a) * 8));
    $bytes = intdiv($bits, 8);
    if (substr($a, 0, $bytes) !== substr($b, 0, $bytes)) {
        return false;
    }
    $rest = $bits % 8;
    return $rest === 0 || ((ord($a[$bytes]) ^ ord($b[$bytes])) & (0xff << (8 - $rest)) & 0xff) === 0;
}

/* $extra: more rules on top of TABLE_STATUS_ALLOW (TABLE_STATUS_SCRAPE_ALLOW for ?format=prometheus). */
function ts_allowed(array $server, string $extra = ''): bool
{
    $ip = (string) ($server['REMOTE_ADDR'] ?? '');
    foreach (explode(',', TABLE_STATUS_ALLOW . ',' . $extra) as $rule) {
        if (ts_ip_in($ip, $rule)) {
            return true;
        }
    }
    // A request a proxy forwarded is not local, even when the proxy runs on this host.
    foreach (['HTTP_X_FORWARDED_FOR', 'HTTP_FORWARDED', 'HTTP_X_REAL_IP'] as $h) {
        if (isset($server[$h])) {
            return false;
        }
    }
    return ts_ip_in($ip, '127.0.0.0/8') || ts_ip_in($ip, '::1/128') || ts_ip_in($ip, '::ffff:127.0.0.0/104');
}

$ts_scrape = ($_GET['format'] ?? null) === 'prometheus';
if (PHP_SAPI !== 'cli' && !ts_allowed($_SERVER, $ts_scrape ? (string) TABLE_STATUS_SCRAPE_ALLOW : '')) {
    http_response_code(403);
    header('Content-Type: text/plain; charset=utf-8');
    header('Cache-Control: no-store');
    echo "table-status.php: access from ", $_SERVER['REMOTE_ADDR'] ?? 'unknown', " is not allowed.\n",
        "Only the local host may see this page; set TABLE_STATUS_ALLOW (or, for ?format=prometheus only, ",
        "TABLE_STATUS_SCRAPE_ALLOW) to allow others (see status/README.md).\n";
    return;
}

/* ---- ?format=prometheus: the scrape endpoint --------------------------------------------------------- */

/* Answer metrics() as Prometheus text (200), or the reason it cannot (503). Returns the HTTP status. */
function ts_prometheus(): int
{
    try {
        if (!extension_loaded('table')) {
            throw new RuntimeException('the table extension is not loaded');
        }
        $body = Shm\Table::metrics();
    } catch (Throwable $e) {
        if (PHP_SAPI !== 'cli') {
            http_response_code(503);
            header('Content-Type: text/plain; charset=utf-8');
            header('Cache-Control: no-store');
        }
        echo 'table-status.php: ', $e->getMessage(), "\n";
        return 503;
    }
    if (PHP_SAPI !== 'cli') {
        header('Content-Type: text/plain; version=0.0.4; charset=utf-8');
        header('Cache-Control: no-store');
        header('X-Content-Type-Options: nosniff');
    }
    echo $body;
    return 200;
}

if ($ts_scrape) {
    ts_prometheus();
    return;
}

/* ---- helpers --------------------------------------------------------------------------------------- */

/* HTML-escape any bytes: invalid UTF-8 is substituted, never dropped or passed through. */
function ts_h(string $s): string
{
    return htmlspecialchars($s, ENT_QUOTES | ENT_SUBSTITUTE | ENT_HTML5, 'UTF-8');
}

/* A binary name as readable text: printable ASCII and valid UTF-8 as is, other bytes as \xHH. */
function ts_name(string $s): string
{
    if ($s !== '' && preg_match('//u', $s) && !preg_match('/[\x00-\x1f\x7f]/', $s)) {
        return $s;
    }
    return preg_replace_callback('/[^\x20-\x7e]/', fn($m) => sprintf('\\x%02x', ord($m[0])), $s);
}

function ts_bytes(int|float $n): string
{
    $u = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
    for ($i = 0; $n >= 1024 && $i < 4; $i++) {
        $n /= 1024;
    }
    return ($i ? number_format($n, $n < 10 ? 2 : 1) : (string) $n) . ' ' . $u[$i];
}

function ts_pct(int|float $part, int|float $whole): string
{
    return $whole > 0 ? number_format(100 * $part / $whole, 1) . '%' : '-';
}

/* One figure: its text, and its raw value in data attributes (what tests and scripts read). */
function ts_fig(string $key, int|float|bool|string|null $value, ?string $text = null): string
{
    $raw = is_bool($value) ? ($value ? '1' : '0') : (string) $value;
    return '<span class="fig" data-stat="' . ts_h($key) . '" data-value="' . ts_h($raw) . '">'
        . ts_h($text ?? (is_int($value) ? number_format($value) : $raw)) . '</span>';
}

function ts_url(array $params): string
{
    $self = strtok((string) ($_SERVER['REQUEST_URI'] ?? ''), '?') ?: '?';
    $q = http_build_query(array_filter($params, fn($v) => $v !== null && $v !== ''));
    return $self . ($q === '' ? '' : '?' . $q);
}

/* ---- what to show ---------------------------------------------------------------------------------- */

$nonce = base64_encode(random_bytes(16));
if (PHP_SAPI !== 'cli') {
    header('Content-Type: text/html; charset=utf-8');
    header("Content-Security-Policy: default-src 'none'; style-src 'nonce-$nonce'; script-src 'nonce-$nonce'; img-src data:; base-uri 'none'; form-action 'self'; frame-ancestors 'none'");
    header('X-Content-Type-Options: nosniff');
    header('Referrer-Policy: no-referrer');
    header('Cache-Control: no-store');
}

$error = null;
$stats = null;
if (!extension_loaded('table')) {
    $error = 'The table extension is not loaded in this PHP (extension=table.so).';
} else {
    try {
        $stats = Shm\Table::stats();
    } catch (Throwable $e) {
        $error = get_class($e) . ': ' . $e->getMessage();
    }
}

// The namespace the key browser shows: hex of its name (binary-safe in a URL); "" is the default one.
$browse = null;
if ($stats !== null && isset($_GET['ns']) && is_string($_GET['ns'])) {
    $raw = $_GET['ns'] === '' ? '' : (ctype_xdigit($_GET['ns']) && strlen($_GET['ns']) % 2 === 0 ? hex2bin($_GET['ns']) : null);
    if ($raw !== null && strlen($raw) <= 255) {
        $browse = $raw;
    }
}
$match = isset($_GET['match']) && is_string($_GET['match']) && $_GET['match'] !== '' ? substr($_GET['match'], 0, 1024) : null;
$page = max(0, (int) ($_GET['page'] ?? 0));
?>
<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>Shm\Table status<?= $stats ? ' - ' . ts_h((string) gethostname()) : '' ?></title>
<style nonce="<?= $nonce ?>">
:root { --fg: #1d2330; --mute: #667085; --line: #e4e7ec; --bg: #f6f7f9; --card: #fff;
  --live: #2e6fdb; --retired: #e8a33d; --held: #c2410c; --free: #d5dbe5; --meta: #98a2b3; --ok: #16a34a; --bad: #dc2626; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); background: var(--bg); }
header { padding: 14px 24px; background: #101828; color: #fff; display: flex; gap: 24px; align-items: baseline; flex-wrap: wrap; }
header h1 { font-size: 18px; margin: 0; }
header .sub { color: #d0d5dd; }
main { padding: 16px 24px; display: grid; gap: 16px; grid-template-columns: repeat(auto-fit, minmax(420px, 1fr)); }
section { background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: 14px 16px; }
section.wide { grid-column: 1 / -1; }
h2 { font-size: 15px; margin: 0 0 10px; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: 4px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; }
th { color: var(--mute); font-weight: 600; font-size: 12px; }
th.sort { cursor: pointer; user-select: none; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: 3px 16px; margin: 0; }
dt { color: var(--mute); }
dd { margin: 0; font-variant-numeric: tabular-nums; }
.legend { display: flex; flex-wrap: wrap; gap: 6px 16px; margin-top: 8px; font-size: 12px; }
.sw { display: inline-block; width: 10px; height: 10px; border-radius: 2px; margin-right: 5px; vertical-align: -1px; }
.mute { color: var(--mute); }
.key { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; word-break: break-all; }
.bad { color: var(--bad); font-weight: 600; }
.ok { color: var(--ok); }
.err { background: #fef3f2; border-color: #fda29b; }
form { display: flex; gap: 8px; margin-bottom: 8px; }
input[type=text] { flex: 1; padding: 4px 8px; border: 1px solid var(--line); border-radius: 4px; font: inherit; }
button, .btn { padding: 4px 10px; border: 1px solid var(--line); background: #fff; border-radius: 4px; font: inherit; cursor: pointer; color: inherit; text-decoration: none; }
pre.val { margin: 0; max-height: 8em; overflow: auto; font-size: 12px; white-space: pre-wrap; word-break: break-all; }
svg text { font: 12px system-ui, sans-serif; fill: var(--fg); }
.p-live { fill: var(--live); background: var(--live); } .p-retired { fill: var(--retired); background: var(--retired); }
.p-held { fill: var(--held); background: var(--held); } .p-free { fill: var(--free); background: var(--free); }
.p-meta { fill: var(--meta); background: var(--meta); }
dl.gap { margin-top: 10px; }
svg.donut { float: right; } svg.donut circle { fill: none; stroke-width: 6; } .ring { stroke: var(--free); } .arc { stroke: var(--ok); }
svg text.donut-label { font-size: 7px; }
</style>
</head>
<body data-js="pending">
<header>
<h1>Shm\Table status</h1>
<?php if ($stats !== null): ?>
<span class="sub"><?= ts_h((string) gethostname()) ?> · table <?= ts_h((string) phpversion('table')) ?> · PHP <?= ts_h(PHP_VERSION) ?> (<?= ts_h(PHP_SAPI) ?>) · pid <?= getmypid() ?> · <?= ts_h(gmdate('Y-m-d H:i:s')) ?> UTC</span>
<span class="sub"><label><input type="checkbox" id="autorefresh"> refresh every 5 s</label></span>
<?php endif; ?>
</header>
<main>
<?php if ($error !== null): ?>
<section class="wide err" id="error"><h2>Not available</h2><p><?= ts_h($error) ?></p></section>
<?php else:
    $s = $stats;
    $size = $s['memory_size'];
    $used = $s['memory_used'];
    $free = $s['memory_free'];
    $retired = $s['retired_bytes'];
    // Per-entry zero-copy holds, when the core reports them: held_bytes are the entries readers hold,
    // held_retired_bytes those of them already retired (memory kept from reuse, part of retired_bytes).
    $held = isset($s['held_retired_bytes']) ? (int) $s['held_retired_bytes'] : null;
    $retiredOnly = max(0, $retired - (int) $held);
    $live = max(0, $used - $retired);
    $meta = max(0, $size - $used - $free);           // index, slots, locks, namespace tables
    $largest = $s['memory_largest_free'] ?? null;
    $frag = ($largest !== null && $free > 0) ? 1 - $largest / $free : null;
    $parts = [
        ['live', 'live entries', $live],
        ['retired', 'retired, not yet freed', $retiredOnly],
    ];
    if ($held !== null) {
        $parts[] = ['held', 'retired, held by zero-copy readers', $held];
    }
    $parts[] = ['free', 'free', $free];
    $parts[] = ['meta', 'index and bookkeeping', $meta];
    $reads = $s['hits'] + $s['misses'];
?>
<section class="wide" id="memory">
<h2>Memory</h2>
<svg id="memory-bar" role="img" aria-label="memory use" width="100%" height="34" viewBox="0 0 1000 34" preserveAspectRatio="none">
<?php $x = 0.0; foreach ($parts as [$id, $label, $bytes]):
    $w = $size > 0 ? 1000 * $bytes / $size : 0; ?>
<rect data-part="<?= $id ?>" x="<?= round($x, 2) ?>" y="0" width="<?= round($w, 2) ?>" height="34" class="p-<?= $id ?>"><title><?= ts_h($label . ': ' . ts_bytes($bytes)) ?></title></rect>
<?php $x += $w; endforeach; ?>
</svg>
<div class="legend">
<?php foreach ($parts as [$id, $label, $bytes]): ?>
<span><i class="sw p-<?= $id ?>"></i><?= ts_h($label) ?> <?= ts_fig("part_$id", $bytes, ts_bytes($bytes)) ?> (<?= ts_pct($bytes, $size) ?>)</span>
<?php endforeach; ?>
</div>
<dl class="gap">
<dt>segment (table.memory)</dt><dd><?= ts_fig('memory_size', $size, ts_bytes($size)) ?></dd>
<dt>used (retired included)</dt><dd><?= ts_fig('memory_used', $used, ts_bytes($used)) ?> (<?= ts_pct($used, $used + $free) ?> of the heap)</dd>
<dt>free</dt><dd><?= ts_fig('memory_free', $free, ts_bytes($free)) ?></dd>
<dt>largest free block</dt><dd><?= $largest === null ? 'n/a' : ts_fig('memory_largest_free', $largest, ts_bytes($largest)) ?></dd>
<dt>fragmentation</dt><dd><?= $frag === null ? 'n/a' : ts_fig('fragmentation', round($frag, 4), ts_pct($frag, 1)) ?> <span class="mute">(1 - largest free block / free)</span></dd>
<dt>retired, not yet freed</dt><dd><?= ts_fig('retired_bytes', $retired, ts_bytes($retired)) ?></dd>
<?php if (isset($s['held_bytes'])): ?><dt>held by zero-copy readers</dt><dd><?= ts_fig('held_bytes', $s['held_bytes'], ts_bytes($s['held_bytes'])) ?> in <?= isset($s['held_entries']) ? ts_fig('held_entries', $s['held_entries']) : '?' ?> entries<?php if ($held !== null): ?>, of which retired <?= ts_fig('held_retired_bytes', $held, ts_bytes($held)) ?><?php endif; ?></dd><?php endif; ?>
<dt>entries</dt><dd><?= ts_fig('entries', $s['entries']) ?></dd>
</dl>
</section>

<section id="hits">
<h2>Hits and misses</h2>
<?php $ratio = $reads > 0 ? $s['hits'] / $reads : null; ?>
<svg id="hit-ratio" role="img" aria-label="hit ratio" width="120" height="120" viewBox="0 0 42 42" class="donut">
<circle cx="21" cy="21" r="15.915" class="ring"></circle>
<?php if ($ratio !== null): ?>
<circle cx="21" cy="21" r="15.915" class="arc" stroke-dasharray="<?= round(100 * $ratio, 2) ?> <?= round(100 - 100 * $ratio, 2) ?>" stroke-dashoffset="25"></circle>
<?php endif; ?>
<text x="21" y="23.5" text-anchor="middle" class="donut-label"><?= $ratio === null ? '-' : ts_h(number_format(100 * $ratio, 1)) . '%' ?></text>
</svg>
<dl>
<dt>hit ratio</dt><dd><?= $ratio === null ? ts_fig('hit_ratio', '', 'no reads yet') : ts_fig('hit_ratio', round($ratio, 4), ts_pct($ratio, 1)) ?></dd>
<dt>hits</dt><dd><?= ts_fig('hits', $s['hits']) ?></dd>
<dt>misses</dt><dd><?= ts_fig('misses', $s['misses']) ?></dd>
<dt>sets</dt><dd><?= ts_fig('sets', $s['sets']) ?></dd>
<dt>deletes</dt><dd><?= ts_fig('deletes', $s['deletes']) ?></dd>
<dt>evictions</dt><dd><?= ts_fig('evictions', $s['evictions']) ?> <span class="mute">(policy <?= ts_fig('eviction_policy', $s['eviction_policy']) ?>)</span></dd>
<dt>expirations</dt><dd><?= ts_fig('expirations', $s['expirations']) ?></dd>
<dt>failed writes (out of memory)</dt><dd class="<?= $s['oom'] ? 'bad' : '' ?>"><?= ts_fig('oom', $s['oom']) ?></dd>
</dl>
</section>

<section id="processes">
<h2>Processes and reliability</h2>
<dl>
<dt>processes attached</dt><dd><?= ts_fig('slots_used', $s['slots_used']) ?> of <?= ts_fig('slots_total', $s['slots_total']) ?> reader slots (<?= ts_pct($s['slots_used'], $s['slots_total']) ?>)</dd>
<dt>pinned slots (zero-copy)</dt><dd><?= ts_fig('pins', $s['pins']) ?></dd>
<dt>lock repairs</dt><dd class="<?= $s['lock_repairs'] ? 'bad' : '' ?>"><?= ts_fig('lock_repairs', $s['lock_repairs']) ?> <span class="mute">(a process died holding a lock; the next one repaired it)</span></dd>
<dt>GC runs</dt><dd><?= isset($s['gc_runs']) ? ts_fig('gc_runs', $s['gc_runs']) : 'n/a' ?> <span class="mute">(leak recovery after a dead writer)</span></dd>
<dt>serializer</dt><dd><?= ts_fig('serializer', $s['serializer']) ?></dd>
</dl>
</section>

<section id="zero-copy">
<h2>Zero-copy reads</h2>
<dl>
<dt>this process (<?= ts_h(PHP_SAPI) ?>)</dt><dd><?= ts_fig('zero_copy', (bool) $s['zero_copy'], $s['zero_copy'] ? 'on' : 'off') ?></dd>
<dt>budget (retired bytes)</dt><dd><?= ts_fig('zero_copy_budget', $s['zero_copy_budget'], ts_bytes($s['zero_copy_budget'])) ?>, <?= ts_pct($retired, $s['zero_copy_budget']) ?> used</dd>
<dt>reads without a copy</dt><dd><?= ts_fig('zero_copy_reads', $s['zero_copy_reads']) ?></dd>
<dt>copied reads</dt><dd><?= ts_fig('copied_reads', $s['copied_reads']) ?></dd>
</dl>
</section>

<?php foreach (['segment' => 'Named segment', 'redis' => 'Redis tier'] as $k => $title):
    if (!isset($s[$k]) || !is_array($s[$k])) continue; ?>
<section id="<?= $k ?>">
<h2><?= $title ?></h2>
<dl>
<?php foreach ($s[$k] as $name => $v): ?>
<dt><?= ts_h((string) $name) ?></dt><dd><?= is_scalar($v) || $v === null ? ts_fig("{$k}_$name", is_scalar($v) ? $v : '', is_bool($v) ? ($v ? 'yes' : 'no') : null) : ts_h(json_encode($v, JSON_PARTIAL_OUTPUT_ON_ERROR | JSON_INVALID_UTF8_SUBSTITUTE)) ?></dd>
<?php endforeach; ?>
</dl>
</section>
<?php endforeach; ?>

<section class="wide" id="namespaces">
<h2>Namespaces</h2>
<table id="ns-table">
<thead><tr><th class="sort" data-type="s" data-key="namespace">namespace</th><th class="sort n" data-type="n" data-key="entries">entries</th><th class="sort n" data-type="n" data-key="bytes">bytes</th><th class="sort n" data-type="n" data-key="share">share</th><th class="sort n" data-type="n" data-key="ttl">with a TTL</th><th></th></tr></thead>
<tbody>
<?php
    $nss = $s['namespaces'];
    uksort($nss, fn($a, $b) => strcmp((string) $a, (string) $b));
    foreach ($nss as $name => $one):
        $name = (string) $name;
        $arg = $name === '' ? null : $name;
        $ttld = null;
        if ($one['count'] > 0 && $one['count'] <= TABLE_STATUS_TTL_SCAN) {
            $ttld = 0;
            foreach (Shm\Table::keys(null, $arg) as $k) {
                $ttld += Shm\Table::ttl((string) $k, $arg) !== false;
            }
        }
?>
<tr data-ns="<?= ts_h(bin2hex($name)) ?>">
<td class="key" data-sort="<?= ts_h(ts_name($name)) ?>"><?= $name === '' ? '<span class="mute">(default)</span>' : ts_h(ts_name($name)) ?></td>
<td class="n" data-sort="<?= $one['count'] ?>"><?= ts_fig('ns_count', $one['count']) ?></td>
<td class="n" data-sort="<?= $one['memory'] ?>"><?= ts_fig('ns_memory', $one['memory'], ts_bytes($one['memory'])) ?></td>
<td class="n" data-sort="<?= $one['memory'] ?>"><?= ts_pct($one['memory'], max(1, $used - $retired)) ?></td>
<td class="n" data-sort="<?= $ttld ?? -1 ?>"><?= $ttld === null ? ($one['count'] ? '<span class="mute">n/a</span>' : '0') : ts_fig('ns_ttl', $ttld) ?></td>
<td><a class="btn" href="<?= ts_h(ts_url(['ns' => bin2hex($name)])) ?>#keys">keys</a></td>
</tr>
<?php endforeach; ?>
</tbody>
</table>
</section>

<?php if ($browse !== null):
    $arg = $browse === '' ? null : $browse;
    $keys = [];
    $kerr = null;
    // keys() returns every matching key at once: a huge namespace is only browsed through a filter.
    $inNs = $s['namespaces'][$browse]['count'] ?? 0;
    $tooMany = $match === null && $inNs > TABLE_STATUS_BROWSE_MAX;
    if (!$tooMany) {
        try {
            $keys = Shm\Table::keys($match, $arg);
        } catch (Throwable $e) {
            $kerr = $e->getMessage();
        }
    }
    $keys = array_map('strval', $keys);
    sort($keys, SORT_STRING);
    $total = count($keys);
    $per = max(1, (int) TABLE_STATUS_PAGE_SIZE);
    $pages = max(1, (int) ceil($total / $per));
    $page = min($page, $pages - 1);
    $slice = array_slice($keys, $page * $per, $per);
?>
<section class="wide" id="keys" data-browse="<?= ts_h(bin2hex($browse)) ?>">
<h2>Keys of <?= $browse === '' ? 'the default namespace' : '<span class="key">' . ts_h(ts_name($browse)) . '</span>' ?> <span class="mute">(<?= ts_fig('keys_total', $total) ?> matching)</span></h2>
<form method="get" action="<?= ts_h(ts_url([])) ?>#keys">
<input type="hidden" name="ns" value="<?= ts_h(bin2hex($browse)) ?>">
<input type="text" name="match" placeholder="glob: user:* ?x [a-z]" value="<?= ts_h((string) $match) ?>">
<button type="submit">filter</button>
</form>
<?php if ($kerr !== null): ?><p class="bad"><?= ts_h($kerr) ?></p><?php endif; ?>
<?php if ($tooMany): ?><p id="too-many">This namespace holds <?= ts_h(number_format($inNs)) ?> entries, more than TABLE_STATUS_BROWSE_MAX (<?= ts_h(number_format(TABLE_STATUS_BROWSE_MAX)) ?>): give a filter to list its keys.</p><?php endif; ?>
<table id="key-table">
<thead><tr><th>key</th><th class="n">TTL</th><?php if (TABLE_STATUS_SHOW_VALUES): ?><th class="n">bytes</th><th>value</th><?php endif; ?></tr></thead>
<tbody>
<?php foreach ($slice as $k):
    $ttl = Shm\Table::ttl($k, $arg); ?>
<tr data-key="<?= ts_h(bin2hex($k)) ?>">
<td class="key"><?= ts_h(ts_name($k)) ?></td>
<td class="n"><?= $ttl === false ? '<span class="mute">never</span>' : ts_h((string) $ttl) . ' s' ?></td>
<?php if (TABLE_STATUS_SHOW_VALUES):
    $wm = Shm\Table::getWithMeta($k, $arg); ?>
<td class="n"><?= $wm === false ? '-' : ts_h(number_format($wm[1]['length'])) ?></td>
<td><?php if ($wm === false): ?><span class="mute">(gone)</span><?php else: ?><pre class="val"><?= ts_h(substr(var_export($wm[0], true), 0, 4096)) ?></pre><?php endif; ?></td>
<?php endif; ?>
</tr>
<?php endforeach; ?>
</tbody>
</table>
<p class="mute"><?php if (!TABLE_STATUS_SHOW_VALUES): ?><span id="values-hidden">Values are hidden; define TABLE_STATUS_SHOW_VALUES as true to show them.</span> <?php endif; ?>
Page <?= $page + 1 ?> of <?= $pages ?>.
<?php if ($page > 0): ?><a class="btn" href="<?= ts_h(ts_url(['ns' => bin2hex($browse), 'match' => $match, 'page' => $page - 1])) ?>#keys">previous</a><?php endif; ?>
<?php if ($page + 1 < $pages): ?><a class="btn" href="<?= ts_h(ts_url(['ns' => bin2hex($browse), 'match' => $match, 'page' => $page + 1])) ?>#keys">next</a><?php endif; ?>
</p>
</section>
<?php endif; ?>
<?php endif; ?>
</main>
<script nonce="<?= $nonce ?>">
(function () {
    'use strict';
    var errors = [];
    window.addEventListener('error', function (e) {
        errors.push(String(e.message));
        document.body.setAttribute('data-js-errors', errors.join(' | '));
    });
    // Sortable namespace table: click a header (again to reverse). The order is kept in the URL
    // (?sort=entries-desc), so a reload or the auto-refresh keeps it.
    var table = document.getElementById('ns-table');
    if (table) {
        var heads = Array.prototype.slice.call(table.querySelectorAll('th.sort'));
        var sortBy = function (th, desc) {
            var col = th.cellIndex;
            var numeric = th.getAttribute('data-type') === 'n';
            var body = table.tBodies[0];
            var rows = Array.prototype.slice.call(body.rows);
            rows.sort(function (a, b) {
                var x = a.cells[col].getAttribute('data-sort'), y = b.cells[col].getAttribute('data-sort');
                var c = numeric ? Number(x) - Number(y) : x.localeCompare(y);
                return desc ? -c : c;
            });
            rows.forEach(function (r) { body.appendChild(r); });
            heads.forEach(function (h) { h.removeAttribute('data-dir'); });
            th.setAttribute('data-dir', desc ? 'desc' : 'asc');
        };
        heads.forEach(function (th) {
            th.addEventListener('click', function () {
                var desc = th.getAttribute('data-dir') !== 'desc';
                sortBy(th, desc);
                var url = new URL(window.location.href);
                url.searchParams.set('sort', th.getAttribute('data-key') + (desc ? '-desc' : '-asc'));
                window.history.replaceState(null, '', url.toString());
            });
        });
        var wanted = /^([a-z]+)-(asc|desc)$/.exec(new URLSearchParams(window.location.search).get('sort') || '');
        if (wanted) {
            heads.forEach(function (th) {
                if (th.getAttribute('data-key') === wanted[1]) {
                    sortBy(th, wanted[2] === 'desc');
                }
            });
        }
    }
    // Optional refresh, remembered across reloads.
    var box = document.getElementById('autorefresh');
    if (box) {
        var on = false;
        try { on = window.localStorage.getItem('table-status-refresh') === '1'; } catch (e) { on = false; }
        box.checked = on;
        var timer = on ? window.setTimeout(function () { window.location.reload(); }, 5000) : null;
        box.addEventListener('change', function () {
            try { window.localStorage.setItem('table-status-refresh', box.checked ? '1' : '0'); } catch (e) { /* private mode */ }
            if (timer) { window.clearTimeout(timer); timer = null; }
            if (box.checked) { timer = window.setTimeout(function () { window.location.reload(); }, 5000); }
        });
    }
    document.body.setAttribute('data-js', 'ok');
}());
</script>
</body>
</html>
