--TEST--
Shm\Table: ini: defaults of every setting, and they can't be changed at runtime
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc';
if (ini_get('table.zero_copy') !== 'auto') die('skip the suite runs with table.zero_copy set on the command line'); ?>
--FILE--
<?php
foreach (['table.enabled', 'table.memory', 'table.eviction_policy', 'table.serializer', 'table.relay_alias', 'table.lock_timeout',
          'table.zero_copy', 'table.zero_copy_budget', 'table.segment', 'table.segment_dir', 'table.segment_mode',
          'table.segment_recreate', 'table.compression', 'table.compression_threshold', 'table.redis',
          'table.redis_namespaces', 'table.redis_prefix', 'table.redis_timeout', 'table.redis_max_stale',
          'table.redis_allowed_classes', 'table.redis_on_error'] as $name) {
    echo $name, ' = ', var_export(ini_get($name), true), "\n";
}
var_dump(ini_set('table.memory', '128M'), ini_get('table.memory'));
var_dump(ini_set('table.eviction_policy', 'noeviction'), ini_get('table.eviction_policy'));
var_dump(ini_set('table.enabled', '0'), ini_get('table.enabled'));
$s = Shm\Table::stats();
var_dump($s['memory_size'], $s['eviction_policy'], $s['serializer'], $s['compression']);
$e = ini_get_all('table');
ksort($e);
foreach ($e as $name => $info) {
    echo $name, ': access ', $info['access'] === INI_SYSTEM ? 'system' : $info['access'], "\n";
}
?>
--EXPECT--
table.enabled = '1'
table.memory = '64M'
table.eviction_policy = 'gdsf'
table.serializer = 'php'
table.relay_alias = '0'
table.lock_timeout = '0'
table.zero_copy = 'auto'
table.zero_copy_budget = ''
table.segment = ''
table.segment_dir = '/dev/shm'
table.segment_mode = '0600'
table.segment_recreate = '0'
table.compression = 'none'
table.compression_threshold = '512'
table.redis = ''
table.redis_namespaces = ''
table.redis_prefix = 'table:'
table.redis_timeout = '1000'
table.redis_max_stale = '1000'
table.redis_allowed_classes = '*'
table.redis_on_error = 'throw'
bool(false)
string(3) "64M"
bool(false)
string(4) "gdsf"
bool(false)
string(1) "1"
int(67108864)
string(4) "gdsf"
string(3) "php"
string(4) "none"
table.apcu_compat: access system
table.compression: access system
table.compression_threshold: access system
table.enabled: access system
table.eviction_policy: access system
table.lock_timeout: access system
table.memory: access system
table.redis: access system
table.redis_allowed_classes: access system
table.redis_max_stale: access system
table.redis_namespaces: access system
table.redis_on_error: access system
table.redis_prefix: access system
table.redis_timeout: access system
table.relay_alias: access system
table.segment: access system
table.segment_dir: access system
table.segment_mode: access system
table.segment_recreate: access system
table.serializer: access system
table.zero_copy: access system
table.zero_copy_budget: access system
