--TEST--
Shm\Table: redis tier: tls:// in a build without TLS (no hiredis_ssl: Debian 12's hiredis 0.14) is refused, saying why; a bad tls:// URL is still called not valid
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; table_skip_unless_posix(); require __DIR__ . '/tier.inc';
if (!array_key_exists('redis', Shm\Table::stats())) die('skip table built without --with-table-hiredis');
if (tier_has_tls()) die('skip this build has TLS (tls.phpt tests it)');
?>
--FILE--
<?php
require __DIR__ . '/tier.inc';
$r = ['sock' => '/nonexistent'];   // no server: the setting is refused before any connection
$try = 'try { var_dump(Table::get("k", "shared")); } catch (Shm\TableException $e) { echo get_class($e), ": ", $e->getMessage(), "\n"; }';
echo tier_run($r, $try, tier_url_ini('tls://127.0.0.1:6380?cafile=/etc/ssl/certs/ca-certificates.crt'));
echo tier_run($r, $try, tier_url_ini('sentinel+tls://127.0.0.1:26379?master=m&auth=secret'));
echo tier_run($r, $try, tier_url_ini('tls://127.0.0.1:6380?verify=2'));
echo tier_run($r, $try, tier_url_ini('tcp://127.0.0.1:6380?cafile=/ca.pem'));
?>
--EXPECTF--
Shm\TableException: Shm\Table is unavailable: table.redis=tls://127.0.0.1:6380?cafile=/etc/ssl/certs/ca-certificates.crt cannot be used: tls:// needs table built with hiredis_ssl (hiredis >= 1.0 with SSL, and OpenSSL's headers: Debian 13's libhiredis-dev and libssl-dev); this build has hiredis %d.%d.%d without it
Shm\TableException: Shm\Table is unavailable: table.redis=sentinel+tls://127.0.0.1:26379?master=m&auth=*** cannot be used: tls:// needs table built with hiredis_ssl (hiredis >= 1.0 with SSL, and OpenSSL's headers: Debian 13's libhiredis-dev and libssl-dev); this build has hiredis %d.%d.%d without it
Shm\TableException: Shm\Table is unavailable: table.redis=tls://127.0.0.1:6380?verify=2 is not valid: verify=2: expected 1 (the default) or 0 (no verification: insecure)
Shm\TableException: Shm\Table is unavailable: table.redis=tcp://127.0.0.1:6380?cafile=/ca.pem is not valid: cafile= is only for tls:// and sentinel+tls://
