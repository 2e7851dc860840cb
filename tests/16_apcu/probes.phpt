--TEST--
Shm\Table: APCu API: extension_loaded, phpversion, function_exists, ini_get and the constants answer as with APCu
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; require __DIR__ . '/apcu.inc'; table_apcu_skipif(); ?>
--ENV--
PHP_INI_SCAN_DIR={PWD}/no-conf.d
--INI--
table.apcu_compat=1
apc.enable_cli=1
--FILE--
<?php
var_dump(extension_loaded('apcu'), phpversion('apcu'), version_compare(phpversion('apcu'), '5.1.0', '>='));
$fns = ['apcu_clear_cache', 'apcu_cache_info', 'apcu_key_info', 'apcu_sma_info', 'apcu_enabled', 'apcu_store',
    'apcu_add', 'apcu_inc', 'apcu_dec', 'apcu_cas', 'apcu_fetch', 'apcu_exists', 'apcu_delete', 'apcu_entry'];
foreach ($fns as $f) {
    if (!function_exists($f) || (new ReflectionFunction($f))->getExtensionName() !== 'apcu') {
        echo "missing: $f\n";
    }
}
var_dump(count(get_extension_funcs('apcu')));
// Symfony's ApcuAdapter::isSupported(), Laravel's and MediaWiki's probes read these.
foreach (['apc.enabled', 'apc.enable_cli', 'apc.ttl', 'apc.use_request_time', 'apc.serializer', 'apc.shm_size',
          'apc.entries_hint', 'apc.gc_ttl', 'apc.shm_segments', 'apc.slam_defense', 'apc.smart',
          'apc.preload_path', 'apc.coredump_unmap', 'apc.mmap_file_mask'] as $ini) {
    echo $ini, ' = ', var_export(ini_get($ini), true), "\n";
}
// As Symfony's check, filter_var(..., FILTER_VALIDATE_BOOLEAN), reads it (ext/filter may be absent: a debug PHP).
var_dump(in_array(strtolower((string) ini_get('apc.enabled')), ['1', 'on', 'true', 'yes'], true) && apcu_enabled());
// apc.use_request_time is PHP_INI_ALL, as in APCu; the rest are PHP_INI_SYSTEM.
var_dump(ini_set('apc.use_request_time', '1'), ini_set('apc.ttl', '5'));
foreach (['APC_LIST_ACTIVE', 'APC_LIST_DELETED', 'APC_ITER_TYPE', 'APC_ITER_KEY', 'APC_ITER_VALUE',
          'APC_ITER_NUM_HITS', 'APC_ITER_MTIME', 'APC_ITER_CTIME', 'APC_ITER_DTIME', 'APC_ITER_ATIME',
          'APC_ITER_REFCOUNT', 'APC_ITER_MEM_SIZE', 'APC_ITER_TTL', 'APC_ITER_NONE', 'APC_ITER_ALL'] as $c) {
    echo $c, ' = ', constant($c), "\n";
}
// APCu's signatures: parameter names (named arguments) and the by-reference $success.
$p = (new ReflectionFunction('apcu_inc'))->getParameters();
var_dump($p[2]->getName(), $p[2]->isPassedByReference());
var_dump(apcu_fetch(key: 'nothing', success: $ok), $ok);
ob_start();
phpinfo(INFO_MODULES);
var_dump((bool) preg_match('/^Provided by => the table extension .*namespace "apcu"/m', ob_get_clean()));
?>
--EXPECT--
bool(true)
string(6) "5.1.22"
bool(true)
int(14)
apc.enabled = '1'
apc.enable_cli = '1'
apc.ttl = '0'
apc.use_request_time = '0'
apc.serializer = 'php'
apc.shm_size = '32M'
apc.entries_hint = '4096'
apc.gc_ttl = '3600'
apc.shm_segments = '1'
apc.slam_defense = '0'
apc.smart = '0'
apc.preload_path = ''
apc.coredump_unmap = '0'
apc.mmap_file_mask = ''
bool(true)
string(1) "0"
bool(false)
APC_LIST_ACTIVE = 1
APC_LIST_DELETED = 2
APC_ITER_TYPE = 1
APC_ITER_KEY = 2
APC_ITER_VALUE = 4
APC_ITER_NUM_HITS = 8
APC_ITER_MTIME = 16
APC_ITER_CTIME = 32
APC_ITER_DTIME = 64
APC_ITER_ATIME = 128
APC_ITER_REFCOUNT = 256
APC_ITER_MEM_SIZE = 512
APC_ITER_TTL = 1024
APC_ITER_NONE = 0
APC_ITER_ALL = 4294967295
string(7) "success"
bool(true)
bool(false)
bool(false)
bool(true)
