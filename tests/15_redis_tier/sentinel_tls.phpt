--TEST--
Shm\Table: redis tier: sentinel+tls://: master, replica and three Sentinels all over TLS only; two hosts find the master through the Sentinels, a write through A is read through B, B's helper hears of A's writes over TLS
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; table_skip_unless_posix();
// 39 s under valgrind (PHP 8.4); the binding over TLS runs under valgrind in tls.phpt, and through the
// Sentinels in sentinel_failover.phpt and sentinel_switch.phpt.
table_skip_if_valgrind('39 s; TLS runs under valgrind in tls.phpt, the Sentinels in the other sentinel PHPTs');
require __DIR__ . '/sentinel.inc'; sentinel_skipif();
// As tls.phpt: CI (REDIS_TESTS_REQUIRED=1) on a machine that could build with TLS must not skip.
$required = getenv('REDIS_TESTS_REQUIRED') === '1' && getenv('TABLE_HIREDIS') !== '0' && tier_could_have_tls();
if (!$required && !tier_has_tls()) die('skip this build has no TLS (hiredis_ssl); tls_not_built.phpt tests the refusal');
if (!$required && !trim((string) shell_exec('command -v openssl'))) die('skip no openssl command to make certificates');
?>
--FILE--
<?php
require __DIR__ . '/sentinel.inc';
$dir = seg_dir();
$c = tier_tls_certs($dir);
// Every server listens on TLS only over TCP (port 0), replicates over TLS, and asks clients for no
// certificate; the unix sockets stay plaintext, for tier_cli.
$tls = fn (int $port) => ['--port', '0', '--tls-port', (string) $port, '--tls-cert-file', $c['cert'],
    '--tls-key-file', $c['key'], '--tls-ca-cert-file', $c['ca'], '--tls-auth-clients', 'no', '--tls-replication', 'yes'];
$mport = tier_free_port();
$master = sentinel_redis($dir, 'master', $tls($mport));
$rport = tier_free_port();
$replica = sentinel_redis($dir, 'replica', array_merge($tls($rport), ['--replicaof', '127.0.0.1', (string) $mport]));
var_dump(table_wait_until(fn () => str_contains(tier_cli($replica, 'INFO', 'replication'), 'master_link_status:up')));

// A Sentinel is asked over TLS too (the cli's --tls).
$ask = fn (int $port, string ...$args) => trim((string) shell_exec(implode(' ', array_map('escapeshellarg',
    array_merge([tier_cli_bin(), '-h', '127.0.0.1', '-p', (string) $port, '--tls', '--cacert', $c['ca']], $args))) . ' 2>&1'));
$sports = [];
for ($i = 1; $i <= 3; $i++) {
    $sports[] = $port = tier_free_port();
    file_put_contents("$dir/sentinel$i.conf", implode("\n", [
        'port 0', "tls-port $port", 'bind 127.0.0.1', "dir $dir", "tls-cert-file {$c['cert']}", "tls-key-file {$c['key']}",
        "tls-ca-cert-file {$c['ca']}", 'tls-auth-clients no', 'tls-replication yes',
        'sentinel monitor ' . SENTINEL_MASTER . " 127.0.0.1 $mport 2", '']));
    sentinel_spawn([tier_sentinel_bin(), "$dir/sentinel$i.conf"], "$dir/sentinel$i.log");
}
// Each Sentinel names the master, knows the replica and the two other Sentinels (their hellos travel
// through the master, over TLS).
$ready = table_wait_until(fn () => array_reduce($sports, fn ($ok, $p) => $ok
    && $ask($p, 'SENTINEL', 'get-master-addr-by-name', SENTINEL_MASTER) === "127.0.0.1\n$mport"
    && str_contains($ask($p, 'SENTINEL', 'replicas', SENTINEL_MASTER), (string) $rport)
    && preg_match('/num-other-sentinels\s+2/', $ask($p, 'SENTINEL', 'master', SENTINEL_MASTER)), true), 120.0);
echo 'the Sentinels know the master, the replica and each other: ', var_export($ready, true), "\n";

$url = 'sentinel+tls://' . implode(',', array_map(fn ($p) => "127.0.0.1:$p", $sports))
    . '?master=' . SENTINEL_MASTER . "&cafile={$c['ca']}";
// Two hosts, each with a named segment of its own. A TLS handshake under valgrind takes longer than the
// default 500 ms (tls.phpt).
$ini = fn (string $seg) => tier_url_ini($url) + ['table.redis_timeout' => '10000', 'table.segment' => $seg,
    'table.segment_dir' => $dir];
$a = tier_agent($master, $ini('host-a'));
$b = tier_agent($master, $ini('host-b'));
// Fresh: each host's helper found the master through the Sentinels and tracks it, over TLS.
var_dump(tier_wait_fresh($a), tier_wait_fresh($b));

var_dump(tier_do($b, 'return Shm\Table::get("k", "shared");'));
$seen = tier_invalidations($b);
var_dump(tier_do($a, 'return Shm\Table::set("k", "v1", null, "shared");'));
var_dump(table_wait_until(fn () => tier_do($b, 'return Shm\Table::get("k", "shared");') === 'v1'));
echo "B's helper heard of A's write: ", var_export(tier_wait_invalidations($b, $seen), true), "\n";
$seen = tier_invalidations($b);
tier_do($a, 'return Shm\Table::set("k", "v2", null, "shared");');
echo "and of the next: ", var_export(tier_wait_invalidations($b, $seen), true), "\n";
var_dump(table_wait_until(fn () => tier_do($b, 'return Shm\Table::get("k", "shared");') === 'v2'));
// The value is in the master, written over TLS (read here over its plaintext unix socket).
echo 'in the master: ', var_export(str_contains(tier_cli($master, 'GET', 'table:6:shared:k'), 'v2'), true), "\n";
$helpers = [tier_do($a, 'return Shm\Table::stats()["redis"]["helper_pid"];'), tier_do($b, 'return Shm\Table::stats()["redis"]["helper_pid"];')];
seg_wait($a);
seg_wait($b);
// Each helper leaves within about a second of its table's last user: wait, so that nothing is left behind.
echo 'helpers gone: ', var_export(table_wait_until(fn () => !array_filter($helpers, fn ($pid) => posix_kill($pid, 0))), true), "\n";
?>
--EXPECT--
bool(true)
the Sentinels know the master, the replica and each other: true
bool(true)
bool(true)
NULL
bool(true)
bool(true)
B's helper heard of A's write: true
and of the next: true
bool(true)
in the master: true
helpers gone: true
