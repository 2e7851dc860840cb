<?php
/*
 * table-metrics.php - a Prometheus scrape endpoint for Shm\Table: drop this one file into a folder PHP
 * serves (php-fpm: the pool whose table you want to watch) and point a scrape job at it:
 *
 *     scrape_configs:
 *       - job_name: table
 *         static_configs: [{ targets: ['app1:80'] }]
 *         metrics_path: /table-metrics.php
 *
 * It answers Shm\Table::metrics() (the figures of stats() in the Prometheus text format; see docs/api.md)
 * with HTTP 200, or 503 with the reason when the table is disabled or unavailable, so that the target
 * shows as down. Like table-status.php it answers only the local host unless told otherwise: define
 * TABLE_METRICS_ALLOW (a comma-separated list of IPs and CIDR ranges, or '*') in a wrapper that includes
 * this file, or edit the default below. A request forwarded by a proxy (X-Forwarded-For, Forwarded,
 * X-Real-IP) is not local. See status/README.md.
 */

defined('TABLE_METRICS_ALLOW') || define('TABLE_METRICS_ALLOW', '');

function table_metrics_ip_in(string $ip, string $rule): bool
{
    $rule = trim($rule);
    if ($rule === '' || $ip === '') {
        return $rule === '*';
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

function table_metrics_allowed(array $server): bool
{
    $ip = (string) ($server['REMOTE_ADDR'] ?? '');
    foreach (explode(',', (string) TABLE_METRICS_ALLOW) as $rule) {
        if (table_metrics_ip_in($ip, $rule)) {
            return true;
        }
    }
    foreach (['HTTP_X_FORWARDED_FOR', 'HTTP_FORWARDED', 'HTTP_X_REAL_IP'] as $h) {
        if (isset($server[$h])) {
            return false;
        }
    }
    return table_metrics_ip_in($ip, '127.0.0.0/8') || table_metrics_ip_in($ip, '::1/128')
        || table_metrics_ip_in($ip, '::ffff:127.0.0.0/104');
}

if (PHP_SAPI !== 'cli') {
    header('Cache-Control: no-store');
    header('X-Content-Type-Options: nosniff');
    if (!table_metrics_allowed($_SERVER)) {
        http_response_code(403);
        header('Content-Type: text/plain; charset=utf-8');
        echo "table-metrics.php: not allowed from this address; set TABLE_METRICS_ALLOW (see status/README.md)\n";
        return;
    }
}
try {
    if (!extension_loaded('table')) {
        throw new RuntimeException('the table extension is not loaded');
    }
    $body = Shm\Table::metrics();
} catch (Throwable $e) {
    if (PHP_SAPI !== 'cli') {
        http_response_code(503);
        header('Content-Type: text/plain; charset=utf-8');
    }
    echo 'table-metrics.php: ', $e->getMessage(), "\n";
    return;
}
if (PHP_SAPI !== 'cli') {
    header('Content-Type: text/plain; version=0.0.4; charset=utf-8');
}
echo $body;
