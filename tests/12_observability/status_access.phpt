--TEST--
Shm\Table: observability: status/table-status.php (page and ?format=prometheus) allows the local host only, unless TABLE_STATUS_ALLOW / TABLE_STATUS_SCRAPE_ALLOW say more
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc';
require __DIR__ . '/observability.inc';
if (obs_status_page() === null) die('skip status/table-status.php not found next to tests/');
?>
--FILE--
<?php
// The page's own functions; under the CLI it renders without an access check (output discarded).
define('TABLE_STATUS_ALLOW', '10.1.0.0/16, 192.0.2.7, 2001:db8::/32');
define('TABLE_STATUS_SCRAPE_ALLOW', '198.51.100.0/24');
ob_start();
require __DIR__ . '/observability.inc';
require obs_status_page();
$html = ob_get_clean();
var_dump(str_contains($html, 'data-js="pending"'), str_contains($html, 'data-stat="hits"'));

$cases = [
    ['127.0.0.1', []], ['127.8.9.10', []], ['::1', []], ['::ffff:127.0.0.1', []],
    ['127.0.0.1', ['HTTP_X_FORWARDED_FOR' => '203.0.113.1']], ['127.0.0.1', ['HTTP_FORWARDED' => 'for=x']],
    ['127.0.0.1', ['HTTP_X_REAL_IP' => '203.0.113.1']],
    ['203.0.113.1', []], ['10.1.200.3', []], ['10.2.0.1', []], ['192.0.2.7', []], ['192.0.2.8', []],
    ['2001:db8:1::5', []], ['2001:db9::1', []], ['10.1.0.1', ['HTTP_X_FORWARDED_FOR' => '203.0.113.1']],
    ['', []], ['not an ip', []], ['198.51.100.4', []], ['198.51.100.4', ['HTTP_X_REAL_IP' => '203.0.113.1']],
];
// ?format=prometheus serves metrics(), under the same rule plus TABLE_STATUS_SCRAPE_ALLOW
ob_start();
$code = ts_prometheus();
$prom = ob_get_clean();
var_dump($code === 200 && str_starts_with($prom, '# HELP table_') && $prom === Shm\Table::metrics());
foreach ($cases as [$ip, $headers]) {
    $page = ts_allowed(['REMOTE_ADDR' => $ip] + $headers);
    $scrape = ts_allowed(['REMOTE_ADDR' => $ip] + $headers, TABLE_STATUS_SCRAPE_ALLOW);
    printf("%-18s %-22s %s%s\n", $ip === '' ? '(none)' : $ip, $headers ? key($headers) : '', $page ? 'allowed' : 'denied', $page === $scrape ? '' : ' (scrape: ' . ($scrape ? 'allowed' : 'denied') . ')');
}
var_dump(ts_ip_in('203.0.113.1', '*'), ts_ip_in('10.0.0.1', '10.0.0.0/33'), ts_ip_in('10.0.0.1', '::/0'));
// names: printable UTF-8 as is, anything else escaped; HTML always escaped
var_dump(ts_name("caf\u{e9}"), ts_name("a\x00\xffb"), ts_h('<a href="x">&</a>'), ts_h("\xff<"));
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
127.0.0.1                                 allowed
127.8.9.10                                allowed
::1                                       allowed
::ffff:127.0.0.1                          allowed
127.0.0.1          HTTP_X_FORWARDED_FOR   denied
127.0.0.1          HTTP_FORWARDED         denied
127.0.0.1          HTTP_X_REAL_IP         denied
203.0.113.1                               denied
10.1.200.3                                allowed
10.2.0.1                                  denied
192.0.2.7                                 allowed
192.0.2.8                                 denied
2001:db8:1::5                             allowed
2001:db9::1                               denied
10.1.0.1           HTTP_X_FORWARDED_FOR   allowed
(none)                                    denied
not an ip                                 denied
198.51.100.4                              denied (scrape: allowed)
198.51.100.4       HTTP_X_REAL_IP         denied (scrape: allowed)
bool(true)
bool(false)
bool(false)
string(5) "café"
string(10) "a\x00\xffb"
string(43) "&lt;a href=&quot;x&quot;&gt;&amp;&lt;/a&gt;"
string(7) "�&lt;"
