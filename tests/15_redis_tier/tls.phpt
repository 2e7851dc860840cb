--TEST--
Shm\Table: redis tier: tls://: two hosts over TLS (the helpers' invalidations too); a wrong CA, a wrong name and a missing cafile are refused, never in plaintext; verify=0 connects
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; table_skip_unless_posix(); require __DIR__ . '/tier.inc'; tier_skipif();
// CI (REDIS_TESTS_REQUIRED=1) on a machine that could build with TLS must not skip: a TLS build is expected.
$required = getenv('REDIS_TESTS_REQUIRED') === '1' && getenv('TABLE_HIREDIS') !== '0' && tier_could_have_tls();
if (!$required && !tier_has_tls()) die('skip this build has no TLS (hiredis_ssl); tls_not_built.phpt tests the refusal');
if (!$required && !trim((string) shell_exec('command -v openssl'))) die('skip no openssl command to make certificates');
?>
--FILE--
<?php
require __DIR__ . '/tier.inc';
$c = tier_tls_certs(seg_dir());
$r = tier_redis_start_tls($c);
$url = "tls://127.0.0.1:{$r['tls_port']}";
// A TLS handshake under valgrind (CI's php84-valgrind) takes longer than the hosts' default 500 ms.
$ini = fn (string $value) => tier_url_ini($value) + ['table.redis_timeout' => '10000'];
$tls = $ini("$url?cafile={$c['ca']}");
$a = tier_agent($r, $tls);
$b = tier_agent($r, $tls);
// Fresh: each host's helper tracks over TLS (the server has no plaintext TCP port).
var_dump(tier_wait_fresh($a), tier_wait_fresh($b));

// A write on A is read on B; B's copy is dropped by its helper when A replaces it.
var_dump(tier_do($b, 'return Shm\Table::get("k", "shared");'));
$seen = tier_invalidations($b);
tier_do($a, 'return Shm\Table::set("k", "v1", null, "shared");');
var_dump(table_wait_until(fn () => tier_do($b, 'return Shm\Table::get("k", "shared");') === 'v1'));
var_dump(tier_wait_invalidations($b, $seen));
$hits = tier_do_fresh($b, 'Shm\Table::get("k", "shared"); $h = Shm\Table::stats()["hits"]; Shm\Table::get("k", "shared"); return Shm\Table::stats()["hits"] - $h;');
echo "B's second read of k is an L1 hit: ", var_export($hits === 1, true), "\n";
$seen = tier_invalidations($b);
tier_do($a, 'return Shm\Table::set("k", "v2", null, "shared");');
echo "B's helper heard of A's write over TLS: ", var_export(tier_wait_invalidations($b, $seen), true), "\n";
var_dump(table_wait_until(fn () => tier_do($b, 'return Shm\Table::get("k", "shared");') === 'v2'));
var_dump(tier_do($a, 'return Shm\Table::increment("n", 5, null, "shared");'), tier_do($b, 'return Shm\Table::increment("n", 1, null, "shared");'));
$helpers = [tier_do($a, 'return Shm\Table::stats()["redis"]["helper_pid"];'), tier_do($b, 'return Shm\Table::stats()["redis"]["helper_pid"];')];
seg_wait($a);
seg_wait($b);

// Refusals: each a Shm\TableException naming the reason; nothing is read in plaintext. The last line a
// host prints is its helper's pid, kept to wait for below.
$try = 'try { var_dump(Table::get("k", "shared")); } catch (Shm\TableException $e) { echo get_class($e), ": ", $e->getMessage(), "\n"; } '
    . 'echo "helper ", Table::stats()["redis"]["helper_pid"], "\n";';
$run = function (string $value) use ($r, $try, $ini, &$helpers): void {
    $out = tier_run($r, $try, $ini($value));
    if (preg_match('/^helper (\d+)$/m', $out, $m)) {
        $helpers[] = (int) $m[1];
        $out = str_replace($m[0] . "\n", '', $out);
    }
    echo $out;
};
$run("$url?cafile={$c['other_ca']}");
$run("$url?cafile={$c['ca']}&sni=elsewhere.example");
$run("$url?cafile={$c['ca']}.missing");
// verify=0: no check of the certificate or the name (insecure); it connects.
$run("$url?cafile={$c['other_ca']}&verify=0");
// The name instead of the address: checked against the certificate's DNS name.
$run("tls://localhost:{$r['tls_port']}?cafile={$c['ca']}");

// Each helper leaves within about a second of its table's last user (tier_helper.c): wait, so that the
// test leaves no process behind.
$helpers = array_filter($helpers);
echo count($helpers), " helpers gone: ", var_export(table_wait_until(fn () => !array_filter($helpers, fn ($pid) => posix_kill($pid, 0))), true), "\n";
?>
--EXPECTF--
bool(true)
bool(true)
NULL
bool(true)
bool(true)
B's second read of k is an L1 hit: true
B's helper heard of A's write over TLS: true
bool(true)
int(5)
int(6)
Shm\TableException: Shm\Table::get(): Redis (table.redis) failed: Redis at 127.0.0.1:%d: TLS handshake failed: certificate verify failed: self-signed certificate in certificate chain (the server's certificate is not signed by a CA in cafile=%s/other-ca.crt); nothing was changed on this host
Shm\TableException: Shm\Table::get(): Redis (table.redis) failed: Redis at 127.0.0.1:%d: TLS handshake failed: certificate verify failed: hostname mismatch (the certificate is not for elsewhere.example, the sni= given); nothing was changed on this host
Shm\TableException: Shm\Table::get(): Redis (table.redis) failed: Redis at 127.0.0.1:%d: TLS: cafile=%s/ca.crt.missing cannot be read: No such file or directory; nothing was changed on this host
string(2) "v2"
string(2) "v2"
7 helpers gone: true
