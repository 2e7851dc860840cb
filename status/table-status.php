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
 *   TABLE_STATUS_NS_PAGE_SIZE namespaces per page of the namespace table (default 50)
 *   TABLE_STATUS_POLL         seconds between two samples of the rate chart (default 5)
 *   TABLE_STATUS_ACTIONS      false (the default): the page only reads; true: an authenticated user may
 *                             delete a key and clear a namespace (POST forms with a CSRF token)
 *   TABLE_STATUS_USERS        who is authenticated for actions: ['name' => password_hash('...')], checked
 *                             by this page through HTTP Basic authentication (default [])
 *   TABLE_STATUS_TRUST_REMOTE_USER  true: a non-empty REMOTE_USER counts as authenticated; only when the web
 *                             server itself checks the password for this page (default false)
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
defined('TABLE_STATUS_NS_PAGE_SIZE') || define('TABLE_STATUS_NS_PAGE_SIZE', 50);
defined('TABLE_STATUS_POLL') || define('TABLE_STATUS_POLL', 5);
defined('TABLE_STATUS_ACTIONS') || define('TABLE_STATUS_ACTIONS', false);
defined('TABLE_STATUS_USERS') || define('TABLE_STATUS_USERS', []);
defined('TABLE_STATUS_TRUST_REMOTE_USER') || define('TABLE_STATUS_TRUST_REMOTE_USER', false);

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

/* ---- ?format=json: the counters the rate chart samples ---------------------------------------------- */

/* One sample: the counters of stats() and the server's clock when they were read. */
function ts_sample(array $s): array
{
    return ['time' => round(microtime(true), 3), 'start_time' => $s['start_time'] ?? null, 'hits' => $s['hits'],
        'misses' => $s['misses'], 'sets' => $s['sets'], 'deletes' => $s['deletes'], 'entries' => $s['entries']];
}

if (($_GET['format'] ?? null) === 'json') {
    if (PHP_SAPI !== 'cli') {
        header('Content-Type: application/json');
        header('Cache-Control: no-store');
        header('X-Content-Type-Options: nosniff');
    }
    try {
        if (!extension_loaded('table')) {
            throw new RuntimeException('the table extension is not loaded');
        }
        echo json_encode(ts_sample(Shm\Table::stats()));
    } catch (Throwable $e) {
        if (PHP_SAPI !== 'cli') {
            http_response_code(503);
        }
        echo json_encode(['error' => $e->getMessage()], JSON_INVALID_UTF8_SUBSTITUTE);
    }
    return;
}

/* ---- actions: who is authenticated, the CSRF token, the POST forms ---------------------------------- */

/* The authenticated user for actions, or null: a user of TABLE_STATUS_USERS whose HTTP Basic password
 * matches its hash, or (TABLE_STATUS_TRUST_REMOTE_USER) the REMOTE_USER the web server authenticated. */
function ts_user(array $server): ?string
{
    $users = TABLE_STATUS_USERS;
    if (is_array($users) && $users !== []) {
        $u = $server['PHP_AUTH_USER'] ?? null;
        $p = $server['PHP_AUTH_PW'] ?? null;
        // php-fpm behind some servers only passes the header: read it ourselves then.
        $h = $server['HTTP_AUTHORIZATION'] ?? $server['REDIRECT_HTTP_AUTHORIZATION'] ?? '';
        if ($u === null && is_string($h) && stripos($h, 'basic ') === 0) {
            $pair = base64_decode(substr($h, 6), true);
            if (is_string($pair) && str_contains($pair, ':')) {
                [$u, $p] = explode(':', $pair, 2);
            }
        }
        if (is_string($u) && is_string($p) && isset($users[$u]) && is_string($users[$u]) && password_verify($p, $users[$u])) {
            return $u;
        }
    }
    if (TABLE_STATUS_TRUST_REMOTE_USER) {
        $u = $server['REMOTE_USER'] ?? $server['REDIRECT_REMOTE_USER'] ?? '';
        return is_string($u) && $u !== '' ? $u : null;
    }
    return null;
}

/* The CSRF token of this user: a secret kept in the PHP session (started here, with a cookie of its own
 * that is HttpOnly and SameSite=Strict, unless the including application already started one), bound to
 * the user name. null when no session can be started (or PHP has no session extension). */
function ts_token(string $user): ?string
{
    if (!function_exists('session_status') || session_status() === PHP_SESSION_DISABLED) {
        return null;   // a PHP built without the session extension: no token, so no actions
    }
    if (session_status() !== PHP_SESSION_ACTIVE) {
        if (headers_sent()) {
            return null;
        }
        session_name('table_status');
        session_set_cookie_params(['lifetime' => 0, 'path' => strtok((string) ($_SERVER['REQUEST_URI'] ?? '/'), '?') ?: '/',
            'secure' => ($_SERVER['HTTPS'] ?? 'off') !== 'off' && ($_SERVER['HTTPS'] ?? '') !== '',
            'httponly' => true, 'samesite' => 'Strict']);
        if (!@session_start(['use_strict_mode' => true, 'use_only_cookies' => true, 'use_trans_sid' => false])) {
            return null;
        }
    }
    if (!isset($_SESSION['table_status_secret']) || !is_string($_SESSION['table_status_secret'])) {
        $_SESSION['table_status_secret'] = bin2hex(random_bytes(32));
    }
    return hash_hmac('sha256', "table-status\0$user", $_SESSION['table_status_secret']);
}

/* A binary string from the hex a form or URL carries ('' is ''); null when it is not hex. */
function ts_unhex(mixed $hex, int $max): ?string
{
    if (!is_string($hex) || strlen($hex) % 2 !== 0 || ($hex !== '' && !ctype_xdigit($hex)) || strlen($hex) > 2 * $max) {
        return null;
    }
    return (string) hex2bin($hex);
}

/* Answer a refused or failed action: nothing was changed. */
function ts_refuse(int $code, string $reason, string $why, string $back): void
{
    $nonce = base64_encode(random_bytes(16));
    http_response_code($code);
    header('Content-Type: text/html; charset=utf-8');
    header("Content-Security-Policy: default-src 'none'; style-src 'nonce-$nonce'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'");
    header('X-Content-Type-Options: nosniff');
    header('Referrer-Policy: same-origin');
    header('Cache-Control: no-store');
    echo '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Refused - Shm\Table status</title>',
        '<style nonce="', $nonce, '">body{font:15px/1.5 system-ui,sans-serif;margin:40px;color:#1d2330}',
        '#refused{border:1px solid #fda29b;background:#fef3f2;border-radius:8px;padding:14px 18px;max-width:720px}</style></head><body>',
        '<div id="refused" data-reason="', htmlspecialchars($reason, ENT_QUOTES), '"><h1>Refused: nothing was changed</h1><p>',
        htmlspecialchars($why, ENT_QUOTES | ENT_SUBSTITUTE, 'UTF-8'), '</p><p><a href="', htmlspecialchars($back, ENT_QUOTES | ENT_SUBSTITUTE, 'UTF-8'),
        '">Back to the status page</a></p></div></body></html>';
}

/* The page to go back to after an action: its own URL with the view's parameters, nothing else. */
function ts_back(mixed $query): string
{
    $self = strtok((string) ($_SERVER['REQUEST_URI'] ?? ''), '?') ?: '?';
    parse_str(is_string($query) ? $query : '', $q);
    $keep = [];
    foreach (['ns', 'match', 'page', 'sort', 'nsq', 'nspage'] as $k) {
        if (isset($q[$k]) && is_string($q[$k]) && $q[$k] !== '') {
            $keep[$k] = substr($q[$k], 0, 1024);
        }
    }
    return $self . ($keep === [] ? '' : '?' . http_build_query($keep)) . (isset($keep['ns']) ? '#keys' : '');
}

/* Display form of a namespace name in messages. */
function ts_ns_label(string $ns): string
{
    return $ns === '' ? 'the default namespace' : 'namespace "' . ts_name($ns) . '"';
}

$ts_user = TABLE_STATUS_ACTIONS && PHP_SAPI !== 'cli' ? ts_user($_SERVER) : null;
$ts_csrf = $ts_user !== null ? ts_token($ts_user) : null;
$ts_flash = null;
if ($ts_csrf !== null && isset($_SESSION['table_status_flash'])) {
    $ts_flash = (array) $_SESSION['table_status_flash'];
    unset($_SESSION['table_status_flash']);
}

// ?login: ask for HTTP Basic credentials (the browser then sends them with every request to this page).
if (isset($_GET['login']) && PHP_SAPI !== 'cli') {
    if ($ts_user === null && TABLE_STATUS_ACTIONS && is_array(TABLE_STATUS_USERS) && TABLE_STATUS_USERS !== []) {
        http_response_code(401);
        header('WWW-Authenticate: Basic realm="table-status", charset="UTF-8"');
        header('Content-Type: text/plain; charset=utf-8');
        header('Cache-Control: no-store');
        echo "table-status.php: log in with a user of TABLE_STATUS_USERS to delete keys and clear namespaces.\n";
        return;
    }
    header('Location: ' . ts_back(''), true, 303);
    return;
}

if (($_SERVER['REQUEST_METHOD'] ?? 'GET') === 'POST' && PHP_SAPI !== 'cli') {
    $back = ts_back($_POST['back'] ?? '');
    $origin = $_SERVER['HTTP_ORIGIN'] ?? null;
    $self = ((($_SERVER['HTTPS'] ?? 'off') !== 'off' && ($_SERVER['HTTPS'] ?? '') !== '') ? 'https' : 'http') . '://' . ($_SERVER['HTTP_HOST'] ?? '');
    $action = $_POST['action'] ?? null;
    if (!TABLE_STATUS_ACTIONS) {
        ts_refuse(403, 'disabled', 'Actions are off: define TABLE_STATUS_ACTIONS as true to allow deleting keys and clearing namespaces (see status/README.md).', $back);
    } elseif ($ts_user === null) {
        ts_refuse(403, 'unauthenticated', 'Actions need an authenticated user: log in (table-status.php?login) with a user of TABLE_STATUS_USERS, or let your web server authenticate and set TABLE_STATUS_TRUST_REMOTE_USER.', $back);
    } elseif ($ts_csrf === null) {
        ts_refuse(403, 'no-session', 'Actions need a PHP session for their CSRF token, and none could be started (session support missing or headers already sent).', $back);
    } elseif (!is_string($_POST['token'] ?? null) || $_POST['token'] === '') {
        ts_refuse(403, 'token-missing', 'The form carried no CSRF token. Reload the status page and use its buttons.', $back);
    } elseif (!hash_equals($ts_csrf, $_POST['token'])) {
        ts_refuse(403, 'token-wrong', 'The form\'s CSRF token is wrong or expired (a new session, another user, or a forged form). Reload the status page and try again.', $back);
    } elseif ($origin !== null && $origin !== $self) {
        ts_refuse(403, 'origin', "The form was sent from another origin ($origin), not from this page ($self).", $back);
    } else {
        $ns = ts_unhex($_POST['ns'] ?? null, 255);
        $key = $action === 'delete' ? ts_unhex($_POST['key'] ?? null, 65535) : '';
        if (!in_array($action, ['delete', 'clear'], true) || $ns === null || $key === null || ($action === 'delete' && $key === '')) {
            ts_refuse(400, 'bad-request', 'The form is incomplete or malformed: the action must be delete (with a namespace and a key, hex-encoded) or clear (with a namespace).', $back);
        } else {
            $arg = $ns === '' ? null : $ns;
            try {
                if ($action === 'delete') {
                    $done = Shm\Table::delete($key, $arg);
                    $msg = $done ? 'Deleted key "' . ts_name($key) . '" from ' . ts_ns_label($ns) . '.'
                        : 'Key "' . ts_name($key) . '" was no longer in ' . ts_ns_label($ns) . ': nothing deleted.';
                } else {
                    $n = (int) Shm\Table::count($arg);
                    Shm\Table::clear($arg);
                    $msg = 'Cleared ' . ts_ns_label($ns) . ' (' . number_format($n) . ' ' . ($n === 1 ? 'entry' : 'entries') . ').';
                }
                $_SESSION['table_status_flash'] = ['ok', $msg];
            } catch (Throwable $e) {
                $_SESSION['table_status_flash'] = ['bad', get_class($e) . ': ' . $e->getMessage()];
            }
            session_write_close();
            header('Cache-Control: no-store');
            header('Location: ' . $back, true, 303);
        }
    }
    return;
}
if (function_exists('session_status') && session_status() === PHP_SESSION_ACTIVE && session_name() === 'table_status') {
    session_write_close();   // the page only reads the session from here on: release its lock
}

/* ---- helpers --------------------------------------------------------------------------------------- */

/* HTML-escape any bytes: invalid UTF-8 is substituted, never dropped or passed through. */
function ts_h(string $s): string
{
    return htmlspecialchars($s, ENT_QUOTES | ENT_SUBSTITUTE | ENT_HTML5, 'UTF-8');
}

/* A table.redis value fit to show (the same rule as phpinfo(), redis/redis_url_mask.h): the values of
 * auth= and password=, and any user info (scheme://user:pass@host), become ***. */
function ts_mask_url(string $url): string
{
    $url = preg_replace('~^([^?]*?://)[^/?]*@~', '$1***@', $url);
    return preg_replace('~([?&](?:auth|password)=)[^&]*~', '$1***', $url);
}

/* Whether the namespace is tiered to Redis (table.redis_namespaces: a list, or * for all): its ttl() would
 * ask Redis, key by key, and move the very counters this page shows. */
function ts_tiered(string $ns): bool
{
    $list = trim((string) ini_get('table.redis_namespaces'));
    if ((string) ini_get('table.redis') === '' || $list === '') {
        return false;
    }
    return $list === '*' || in_array($ns, array_map('trim', explode(',', $list)), true);
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

/* A duration in seconds as "3 d 4 h", "2 h 5 min", "4 min 2 s" or "42 s". */
function ts_duration(int $s): string
{
    $s = max(0, $s);
    $d = intdiv($s, 86400);
    $h = intdiv($s % 86400, 3600);
    $m = intdiv($s % 3600, 60);
    $r = $s % 60;
    return $d ? "$d d $h h" : ($h ? "$h h $m min" : ($m ? "$m min $r s" : "$r s"));
}

/* Unix seconds as UTC, or a dash for 0. */
function ts_time(int $t): string
{
    return $t > 0 ? gmdate('Y-m-d H:i:s', $t) : '-';
}

/* A hidden-field POST form for one action, when actions are available to this user. */
function ts_action_form(string $action, string $ns, ?string $key, string $label, string $confirm): string
{
    global $ts_csrf;
    if ($ts_csrf === null) {
        return '';
    }
    $q = (string) ($_SERVER['QUERY_STRING'] ?? '');
    return '<form method="post" class="act" action="' . ts_h(ts_url([])) . '" data-confirm="' . ts_h($confirm) . '">'
        . '<input type="hidden" name="action" value="' . ts_h($action) . '">'
        . '<input type="hidden" name="ns" value="' . ts_h(bin2hex($ns)) . '">'
        . ($key === null ? '' : '<input type="hidden" name="key" value="' . ts_h(bin2hex($key)) . '">')
        . '<input type="hidden" name="back" value="' . ts_h($q) . '">'
        . '<input type="hidden" name="token" value="' . ts_h($ts_csrf) . '">'
        . '<button type="submit" class="danger" data-action="' . ts_h($action) . '">' . ts_h($label) . '</button></form>';
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
    header("Content-Security-Policy: default-src 'none'; style-src 'nonce-$nonce'; script-src 'nonce-$nonce'; img-src data:; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'");
    header('X-Content-Type-Options: nosniff');
    header('Referrer-Policy: same-origin');
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
th a { color: inherit; text-decoration: none; }
form.act { display: inline-flex; margin: 0 0 0 6px; vertical-align: middle; }
button.danger { border-color: #fda29b; color: var(--bad); background: #fff; }
button.danger:hover { background: #fef3f2; }
td.acts { white-space: nowrap; }
h2 form.act { font-size: 13px; font-weight: normal; }
.flash { font-weight: 600; }
.flash.done { background: #ecfdf3; border-color: #75e0a7; }
.small { font-size: 12px; margin: 6px 0 0; }
.rate { font-weight: 600; }
header a.login { color: #fff; }
.s-hits { stroke: var(--ok); background: var(--ok); } .s-misses { stroke: var(--bad); background: var(--bad); }
.s-sets { stroke: var(--live); background: var(--live); }
#rate-chart polyline { fill: none; stroke-width: 1.5; vector-effect: non-scaling-stroke; }
#rate-chart line { stroke: var(--line); vector-effect: non-scaling-stroke; }
#rate-chart text { font-size: 10px; fill: var(--mute); }
</style>
</head>
<body data-js="pending">
<header>
<h1>Shm\Table status</h1>
<?php if ($stats !== null): ?>
<span class="sub"><?= ts_h((string) gethostname()) ?> · table <?= ts_h((string) phpversion('table')) ?> · PHP <?= ts_h(PHP_VERSION) ?> (<?= ts_h(PHP_SAPI) ?>) · pid <?= getmypid() ?> · <?= ts_h(gmdate('Y-m-d H:i:s')) ?> UTC</span>
<?php if (isset($stats['start_time'])): ?><span class="sub">up <?= ts_fig('uptime', time() - (int) $stats['start_time'], ts_duration(time() - (int) $stats['start_time'])) ?> (since <?= ts_h(ts_time((int) $stats['start_time'])) ?> UTC)</span><?php endif; ?>
<span class="sub"><label><input type="checkbox" id="autorefresh"> refresh every 5 s</label></span>
<?php if ($ts_csrf !== null): ?><span class="sub" id="user">actions on, as <?= ts_h($ts_user) ?></span>
<?php elseif (TABLE_STATUS_ACTIONS && is_array(TABLE_STATUS_USERS) && TABLE_STATUS_USERS !== []): ?><span class="sub"><a class="login" href="<?= ts_h(ts_url(['login' => '1'])) ?>">log in for actions</a></span><?php endif; ?>
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
    // The heap's used bytes are live entries, retired ones and, with zero-copy, retired ones that readers
    // still hold (the core's consistency check, core/check.c, adds them up so). Live entries are what the
    // namespaces hold. retired_bytes is the retire queue (entries waiting for readers' epochs to pass);
    // held_retired_bytes, when the core reports it, counts every retired entry a zero-copy reader holds:
    // those still in the queue and those moved out of it to wait for their holders' requests to end, which
    // retired_bytes no longer counts. So "retired, not yet freed" is what is left of used after live and
    // held, and not retired_bytes - held_retired_bytes (below 0, and the held list counted as live, when
    // held entries have left the queue). Clamped: stats() reads the namespaces before the allocator.
    $live = 0;
    foreach ($s['namespaces'] as $one) {
        $live += (int) $one['memory'];
    }
    $live = min($live, $used);
    $held = isset($s['held_retired_bytes']) ? min((int) $s['held_retired_bytes'], $used - $live) : null;
    $retiredOnly = $used - $live - (int) $held;
    // What table.memory holds besides the heap: the header, the locks, remember()'s claims and the index
    // (bucket heads). The reader slots, their hold lists and the namespace tables live after table.memory.
    $meta = max(0, $size - $used - $free);
    // The zero-copy budget bounds the bytes of held entries, live or retired (docs/zero-copy.md), not the
    // retired bytes; a core without held_bytes compared retired bytes with it.
    [$budgetOf, $budgetUsed] = isset($s['held_bytes']) ? ['held bytes', (int) $s['held_bytes']] : ['retired bytes', $retired];
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
<?php if ($ts_flash !== null): ?>
<section class="wide flash <?= $ts_flash[0] === 'ok' ? 'done' : 'err' ?>" id="flash"><?= ts_h((string) ($ts_flash[1] ?? '')) ?></section>
<?php endif; ?>
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
<?php if (array_key_exists('segment', $s)): ?>
<dt>segment</dt><dd><?php if (is_string($s['segment'])): ?><?= ts_fig('segment', $s['segment']) ?> <span class="mute">(named: <?= ts_fig('segment_path', (string) $s['segment_path']) ?>, shared by every process that names it)</span><?php else: ?><?= ts_fig('segment', '', 'anonymous') ?> <span class="mute">(shared with the processes forked from the one that loaded the extension)</span><?php endif; ?></dd>
<?php if (isset($s['processes'])): ?><dt>live processes on the segment</dt><dd><?= ts_fig('processes', $s['processes']) ?></dd><?php endif; ?>
<?php if (isset($s['segment_same_base'])): ?><dt>mapped at its creator's address</dt><dd><?= ts_fig('segment_same_base', (bool) $s['segment_same_base'], $s['segment_same_base'] ? 'yes' : 'no: arrays are copied out here') ?></dd><?php endif; ?>
<?php if (!empty($s['segment_note'])): ?><dt>note</dt><dd class="bad"><?= ts_fig('segment_note', (string) $s['segment_note']) ?></dd><?php endif; ?>
<?php endif; ?>
<dt>pinned slots (zero-copy)</dt><dd><?= ts_fig('pins', $s['pins']) ?></dd>
<dt>lock repairs</dt><dd class="<?= $s['lock_repairs'] ? 'bad' : '' ?>"><?= ts_fig('lock_repairs', $s['lock_repairs']) ?> <span class="mute">(a process died holding a lock; the next one repaired it)</span></dd>
<?php if (isset($s['lock_timeouts'])): ?><dt>lock timeouts</dt><dd class="<?= $s['lock_timeouts'] ? 'bad' : '' ?>"><?= ts_fig('lock_timeouts', $s['lock_timeouts']) ?> <span class="mute">(a call gave up waiting for a lock: a process holding it was stopped or stuck)</span></dd><?php endif; ?>
<dt>GC runs</dt><dd><?= isset($s['gc_runs']) ? ts_fig('gc_runs', $s['gc_runs']) : 'n/a' ?> <span class="mute">(leak recovery after a dead writer)</span></dd>
<dt>serializer</dt><dd><?= ts_fig('serializer', $s['serializer']) ?></dd>
<?php if (isset($s['start_time'])): ?>
<dt>table started</dt><dd><?= ts_fig('start_time', $s['start_time'], ts_time((int) $s['start_time']) . ' UTC') ?> <span class="mute">(segment created; the counters count from here)</span></dd>
<dt>uptime</dt><dd><?= ts_h(ts_duration(time() - (int) $s['start_time'])) ?></dd>
<?php endif; ?>
</dl>
</section>

<section id="rates-section">
<h2>Hits, misses and sets per second</h2>
<?php $window = 600; $poll = max(1, (int) TABLE_STATUS_POLL); ?>
<div id="rates" data-sample="<?= ts_h(json_encode(ts_sample($s))) ?>" data-poll="<?= $poll ?>" data-window="<?= $window ?>" data-url="<?= ts_h(ts_url(['format' => 'json'])) ?>" data-intervals="[]">
<svg id="rate-chart" role="img" aria-label="hits, misses and sets per second" width="100%" height="150" viewBox="0 0 600 150" preserveAspectRatio="none"></svg>
<div class="legend"><span><i class="sw s-hits"></i>hits/s <span class="rate" id="rate-hits">-</span></span><span><i class="sw s-misses"></i>misses/s <span class="rate" id="rate-misses">-</span></span><span><i class="sw s-sets"></i>sets/s <span class="rate" id="rate-sets">-</span></span><span class="mute" id="rate-span"></span></div>
</div>
<p class="mute small">Sampled by this page every <?= $poll ?> s (<code>?format=json</code>) while it is open, over the last <?= intdiv($window, 60) ?> minutes; the samples stay in this browser tab. For history, scrape <code>?format=prometheus</code>.</p>
</section>

<section id="ini">
<h2>INI settings</h2>
<table id="ini-table">
<thead><tr><th>setting</th><th>value</th><th>php.ini</th></tr></thead>
<tbody>
<?php foreach (ini_get_all('table', true) ?: [] as $name => $one):
    $local = (string) ($one['local_value'] ?? '');
    $global = (string) ($one['global_value'] ?? '');
    if ($name === 'table.redis') {
        [$local, $global] = [ts_mask_url($local), ts_mask_url($global)];
    } ?>
<tr data-ini="<?= ts_h((string) $name) ?>"><td class="key"><?= ts_h((string) $name) ?></td><td class="key" data-value="<?= ts_h($local) ?>"><?= $local === '' ? '<span class="mute">(empty)</span>' : ts_h($local) ?></td><td class="key mute"><?= $global === $local ? '' : ts_h($global) ?></td></tr>
<?php endforeach; ?>
</tbody>
</table>
</section>

<section id="zero-copy">
<h2>Zero-copy reads</h2>
<dl>
<dt>this process (<?= ts_h(PHP_SAPI) ?>)</dt><dd><?= ts_fig('zero_copy', (bool) $s['zero_copy'], $s['zero_copy'] ? 'on' : 'off') ?></dd>
<dt>budget (<?= $budgetOf ?>)</dt><dd><?= ts_fig('zero_copy_budget', $s['zero_copy_budget'], ts_bytes($s['zero_copy_budget'])) ?>, <?= ts_fig('zero_copy_budget_used', round($budgetUsed / max(1, $s['zero_copy_budget']), 4), ts_pct($budgetUsed, $s['zero_copy_budget'])) ?> used</dd>
<dt>reads without a copy</dt><dd><?= ts_fig('zero_copy_reads', $s['zero_copy_reads']) ?></dd>
<dt>copied reads</dt><dd><?= ts_fig('copied_reads', $s['copied_reads']) ?></dd>
</dl>
</section>

<?php foreach (['redis' => 'Redis tier'] as $k => $title):
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
<?php
    // Sorted, filtered and paged here, not in the browser: 10,000 namespaces make one page of
    // TABLE_STATUS_NS_PAGE_SIZE rows, and only those rows pay for counting their TTL'd entries.
    $cols = ['namespace' => 's', 'entries' => 'n', 'bytes' => 'n', 'share' => 'n'];
    [$sortKey, $sortDir] = preg_match('/^(namespace|entries|bytes|share)-(asc|desc)$/', (string) ($_GET['sort'] ?? ''), $sm)
        ? [$sm[1], $sm[2]] : ['namespace', 'asc'];
    $nsq = isset($_GET['nsq']) && is_string($_GET['nsq']) ? substr($_GET['nsq'], 0, 255) : '';
    $list = [];
    foreach ($s['namespaces'] as $name => $one) {
        $name = (string) $name;
        $shown = ts_name($name);   // once per namespace, not once per comparison
        if ($nsq === '' || stripos($shown, $nsq) !== false) {
            $list[] = [$name, (int) $one['count'], (int) $one['memory'], $shown];
        }
    }
    usort($list, function ($a, $b) use ($sortKey, $sortDir) {
        $c = match ($sortKey) {
            'entries' => $a[1] <=> $b[1],
            'bytes', 'share' => $a[2] <=> $b[2],
            default => strcmp($a[3], $b[3]),
        };
        $c = $c ?: strcmp($a[0], $b[0]);
        return $sortDir === 'desc' ? -$c : $c;
    });
    $nsTotal = count($s['namespaces']);
    $nsShown = count($list);
    $nsPer = max(1, (int) TABLE_STATUS_NS_PAGE_SIZE);
    $nsPages = max(1, (int) ceil($nsShown / $nsPer));
    $nsPage = min(max(0, (int) ($_GET['nspage'] ?? 0)), $nsPages - 1);
    $rowsNs = array_slice($list, $nsPage * $nsPer, $nsPer);
    $view = ['sort' => $sortKey === 'namespace' && $sortDir === 'asc' ? null : "$sortKey-$sortDir", 'nsq' => $nsq,
        'ns' => $browse === null ? null : bin2hex($browse), 'match' => $match, 'nspage' => $nsPage ?: null];
?>
<h2>Namespaces <span class="mute">(<?= ts_fig('namespaces_total', $nsTotal) ?><?= $nsq === '' ? '' : ', ' . ts_fig('namespaces_matching', $nsShown) . ' matching' ?>)</span></h2>
<form method="get" action="<?= ts_h(ts_url([])) ?>#namespaces">
<?php foreach (['sort' => $view['sort'], 'ns' => $view['ns'], 'match' => $match] as $k => $v): if ($v !== null && $v !== ''): ?><input type="hidden" name="<?= $k ?>" value="<?= ts_h((string) $v) ?>"><?php endif; endforeach; ?>
<input type="text" name="nsq" placeholder="namespace contains..." value="<?= ts_h($nsq) ?>">
<button type="submit">filter</button>
</form>
<table id="ns-table">
<thead><tr>
<?php foreach ($cols as $col => $type):
    $dir = $sortKey === $col ? ($sortDir === 'asc' ? 'desc' : 'asc') : ($type === 'n' ? 'desc' : 'asc'); ?>
<th class="sort<?= $type === 'n' ? ' n' : '' ?>" data-type="<?= $type ?>" data-key="<?= $col ?>"<?= $sortKey === $col ? ' data-dir="' . $sortDir . '"' : '' ?>><a href="<?= ts_h(ts_url(['sort' => "$col-$dir", 'nspage' => null] + $view)) ?>#namespaces"><?= $col ?><?= $sortKey === $col ? ($sortDir === 'asc' ? ' ▲' : ' ▼') : '' ?></a></th>
<?php endforeach; ?>
<th class="n">with a TTL</th><th></th></tr></thead>
<tbody>
<?php
    foreach ($rowsNs as [$name, $count, $bytes, $shown]):
        $arg = $name === '' ? null : $name;
        $ttld = null;
        if ($count > 0 && $count <= TABLE_STATUS_TTL_SCAN && !ts_tiered($name)) {
            $ttld = 0;
            foreach (Shm\Table::keys(null, $arg) as $k) {
                $ttld += Shm\Table::ttl((string) $k, $arg) !== false;
            }
        }
?>
<tr data-ns="<?= ts_h(bin2hex($name)) ?>">
<td class="key" data-sort="<?= ts_h(ts_name($name)) ?>"><?= $name === '' ? '<span class="mute">(default)</span>' : ts_h(ts_name($name)) ?></td>
<td class="n" data-sort="<?= $count ?>"><?= ts_fig('ns_count', $count) ?></td>
<td class="n" data-sort="<?= $bytes ?>"><?= ts_fig('ns_memory', $bytes, ts_bytes($bytes)) ?></td>
<td class="n" data-sort="<?= $bytes ?>"><?= ts_pct($bytes, max(1, $live)) ?></td>
<td class="n" data-sort="<?= $ttld ?? -1 ?>"><?= $ttld === null ? ($count ? '<span class="mute">n/a</span>' : '0') : ts_fig('ns_ttl', $ttld) ?></td>
<td class="acts"><a class="btn" href="<?= ts_h(ts_url(['ns' => bin2hex($name), 'match' => null] + $view)) ?>#keys">keys</a><?= $count > 0 ? ts_action_form('clear', $name, null, 'clear', 'Clear ' . ts_ns_label($name) . ' (' . number_format($count) . ' entries)?') : '' ?></td>
</tr>
<?php endforeach; ?>
</tbody>
</table>
<p class="mute" id="ns-pager">Namespaces <?= $nsShown ? number_format($nsPage * $nsPer + 1) : 0 ?>-<?= number_format($nsPage * $nsPer + count($rowsNs)) ?> of <?= number_format($nsShown) ?>, page <span id="ns-page"><?= $nsPage + 1 ?></span> of <span id="ns-pages"><?= $nsPages ?></span>.
<?php if ($nsPage > 0): ?><a class="btn" id="ns-first" href="<?= ts_h(ts_url(['nspage' => null] + $view)) ?>#namespaces">first</a> <a class="btn" id="ns-prev" href="<?= ts_h(ts_url(['nspage' => $nsPage - 1 ?: null] + $view)) ?>#namespaces">previous</a><?php endif; ?>
<?php if ($nsPage + 1 < $nsPages): ?><a class="btn" id="ns-next" href="<?= ts_h(ts_url(['nspage' => $nsPage + 1] + $view)) ?>#namespaces">next</a> <a class="btn" id="ns-last" href="<?= ts_h(ts_url(['nspage' => $nsPages - 1] + $view)) ?>#namespaces">last</a><?php endif; ?>
</p>
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
<h2>Keys of <?= $browse === '' ? 'the default namespace' : '<span class="key">' . ts_h(ts_name($browse)) . '</span>' ?> <span class="mute">(<?= ts_fig('keys_total', $total) ?> matching)</span>
<?= $inNs > 0 ? ts_action_form('clear', $browse, null, 'clear this namespace', 'Clear ' . ts_ns_label($browse) . ' (' . number_format($inNs) . ' entries)?') : '' ?></h2>
<form method="get" action="<?= ts_h(ts_url([])) ?>#keys">
<input type="hidden" name="ns" value="<?= ts_h(bin2hex($browse)) ?>">
<input type="text" name="match" placeholder="glob: user:* ?x [a-z]" value="<?= ts_h((string) $match) ?>">
<button type="submit">filter</button>
</form>
<?php if ($kerr !== null): ?><p class="bad"><?= ts_h($kerr) ?></p><?php endif; ?>
<?php if ($tooMany): ?><p id="too-many">This namespace holds <?= ts_h(number_format($inNs)) ?> entries, more than TABLE_STATUS_BROWSE_MAX (<?= ts_h(number_format(TABLE_STATUS_BROWSE_MAX)) ?>): give a filter to list its keys.</p><?php endif; ?>
<table id="key-table">
<thead><tr><th>key</th><th class="n">size</th><th>created (UTC)</th><th>updated (UTC)</th><th class="n">TTL</th><?php if (TABLE_STATUS_SHOW_VALUES): ?><th>value</th><?php endif; ?><?php if ($ts_csrf !== null): ?><th></th><?php endif; ?></tr></thead>
<tbody>
<?php foreach ($slice as $k):
    // getWithMeta() is the one read that gives size, times and TTL: it counts a hit, as a get() does.
    $wm = Shm\Table::getWithMeta($k, $arg);
    $meta = $wm === false ? null : $wm[1]; ?>
<tr data-key="<?= ts_h(bin2hex($k)) ?>">
<td class="key"><?= ts_h(ts_name($k)) ?></td>
<?php if ($meta === null): ?>
<td class="n mute" colspan="4">(gone since it was listed)</td>
<?php else: ?>
<td class="n"><?= ts_fig('key_length', (int) $meta['length'], ts_bytes((int) $meta['length'])) ?></td>
<td><?= ts_fig('key_created', (int) $meta['created'], ts_time((int) $meta['created'])) ?></td>
<td><?= ts_fig('key_updated', (int) $meta['updated'], ts_time((int) $meta['updated'])) ?></td>
<td class="n"><?= (int) $meta['ttl'] < 0 ? ts_fig('key_ttl', -1, 'never') : ts_fig('key_ttl', (int) $meta['ttl'], $meta['ttl'] . ' s') ?></td>
<?php endif; ?>
<?php if (TABLE_STATUS_SHOW_VALUES): ?>
<td><?php if ($wm === false): ?><span class="mute">(gone)</span><?php else: ?><pre class="val"><?= ts_h(substr(var_export($wm[0], true), 0, 4096)) ?></pre><?php endif; ?></td>
<?php endif; ?>
<?php if ($ts_csrf !== null): ?><td><?= ts_action_form('delete', $browse, $k, 'delete', 'Delete key "' . ts_name($k) . '" from ' . ts_ns_label($browse) . '?') ?></td><?php endif; ?>
</tr>
<?php endforeach; ?>
</tbody>
</table>
<p class="mute"><?php if (!TABLE_STATUS_SHOW_VALUES): ?><span id="values-hidden">Values are hidden; define TABLE_STATUS_SHOW_VALUES as true to show them.</span> <?php endif; ?>
Size is the stored (serialized) value's; reading each listed key's size, times and TTL counts one hit per key.
Page <?= $page + 1 ?> of <?= $pages ?>.
<?php if ($page > 0): ?><a class="btn" href="<?= ts_h(ts_url(['ns' => bin2hex($browse), 'match' => $match, 'page' => $page - 1] + $view)) ?>#keys">previous</a><?php endif; ?>
<?php if ($page + 1 < $pages): ?><a class="btn" href="<?= ts_h(ts_url(['ns' => bin2hex($browse), 'match' => $match, 'page' => $page + 1] + $view)) ?>#keys">next</a><?php endif; ?>
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
    // Action buttons ask before they delete or clear.
    Array.prototype.forEach.call(document.querySelectorAll('form.act'), function (f) {
        f.addEventListener('submit', function (e) {
            if (!window.confirm(f.getAttribute('data-confirm'))) {
                e.preventDefault();
            }
        });
    });
    // The rate chart: the page samples ?format=json every data-poll seconds and keeps the samples of the
    // last data-window seconds in sessionStorage (so a reload or the auto-refresh keeps the history of
    // this tab). A rate is the growth of a counter between two samples over the server time between them.
    var rates = document.getElementById('rates');
    if (rates) {
        var SERIES = ['hits', 'misses', 'sets'];
        var NS = 'http://www.w3.org/2000/svg';
        var svg = document.getElementById('rate-chart');
        var win = Number(rates.getAttribute('data-window'));
        var store = 'table-status-samples:' + window.location.pathname;
        var samples = [];
        try { samples = JSON.parse(window.sessionStorage.getItem(store) || '[]'); } catch (e) { samples = []; }
        if (!Array.isArray(samples)) { samples = []; }
        var el = function (name, attrs, text) {
            var n = document.createElementNS(NS, name);
            Object.keys(attrs).forEach(function (k) { n.setAttribute(k, attrs[k]); });
            if (text !== undefined) { n.textContent = text; }
            svg.appendChild(n);
            return n;
        };
        var fmt = function (r) { return r >= 100 ? r.toFixed(0) : r >= 10 ? r.toFixed(1) : r.toFixed(2); };
        var draw = function () {
            var iv = [];
            for (var i = 1; i < samples.length; i++) {
                var a = samples[i - 1], b = samples[i], dt = b.time - a.time, one = { t0: a.time, t1: b.time };
                SERIES.forEach(function (k) { one[k] = b[k] - a[k]; one[k + '_rate'] = (b[k] - a[k]) / dt; });
                iv.push(one);
            }
            rates.setAttribute('data-intervals', JSON.stringify(iv));
            rates.setAttribute('data-samples', String(samples.length));
            while (svg.firstChild) { svg.removeChild(svg.firstChild); }
            var L = 44, R = 596, T = 8, B = 130;
            var max = 0;
            iv.forEach(function (o) { SERIES.forEach(function (k) { max = Math.max(max, o[k + '_rate']); }); });
            var top = max > 0 ? Math.pow(10, Math.ceil(Math.log10(max * 1.05))) : 1;
            [1, 2, 5].some(function (f) { if (top / 10 * f >= max * 1.05) { top = top / 10 * f; return true; } return false; });
            [0, 0.5, 1].forEach(function (f) {
                var y = B - f * (B - T);
                el('line', { x1: L, x2: R, y1: y, y2: y });
                el('text', { x: L - 4, y: y + 3, 'text-anchor': 'end' }, fmt(top * f));
            });
            var now = samples.length ? samples[samples.length - 1].time : 0;
            // The x axis spans the samples there are (at least a minute, at most the window).
            var span = Math.min(win, Math.max(60, samples.length ? now - samples[0].time : 0));
            var x = function (t) { return R - (now - t) / span * (R - L); };
            el('text', { x: L, y: 146 }, span >= 120 ? '-' + Math.round(span / 60) + ' min' : '-' + Math.round(span) + ' s');
            el('text', { x: R, y: 146, 'text-anchor': 'end' }, 'now');
            if (iv.length === 0) {
                el('text', { x: (L + R) / 2, y: 70, 'text-anchor': 'middle' }, 'collecting: the first rate comes with the next sample');
            }
            SERIES.forEach(function (k) {
                var pts = iv.map(function (o) { return x(o.t1).toFixed(1) + ',' + (B - Math.min(1, o[k + '_rate'] / top) * (B - T)).toFixed(1); });
                if (pts.length === 1) { pts.unshift(x(iv[0].t0).toFixed(1) + ',' + pts[0].split(',')[1]); }
                if (pts.length) { el('polyline', { points: pts.join(' '), 'class': 's-' + k, 'data-series': k }); }
                document.getElementById('rate-' + k).textContent = iv.length ? fmt(iv[iv.length - 1][k + '_rate']) : '-';
            });
            document.getElementById('rate-span').textContent = samples.length > 1
                ? '(' + samples.length + ' samples over ' + Math.round(now - samples[0].time) + ' s)' : '';
        };
        var add = function (s) {
            if (!s || typeof s.time !== 'number') { return; }
            var last = samples[samples.length - 1];
            if (last && s.time <= last.time) { return; }          // an older sample (a cached page): skip it
            // A new segment, or counters that went back: the old samples say nothing about this table.
            if (last && (last.start_time !== s.start_time || SERIES.some(function (k) { return s[k] < last[k]; }))) {
                samples = [];
            }
            samples.push(s);
            while (samples.length > 2 && s.time - samples[1].time >= win) { samples.shift(); }
            try { window.sessionStorage.setItem(store, JSON.stringify(samples)); } catch (e) { /* private mode */ }
            draw();
        };
        add(JSON.parse(rates.getAttribute('data-sample')));
        draw();
        var url = rates.getAttribute('data-url');
        window.setInterval(function () {
            window.fetch(url, { cache: 'no-store', credentials: 'same-origin' })
                .then(function (r) { return r.ok ? r.json() : null; })
                .then(add)
                .catch(function () { /* a missed sample: the next one spans the gap */ });
        }, Number(rates.getAttribute('data-poll')) * 1000);
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
