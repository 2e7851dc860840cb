--TEST--
Shm\Table: ini: table.ini lists every setting of ini_get_all('table'), each with its default
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc';
require_once __DIR__ . '/../helpers.inc';
if (table_ini_file() === null) die('skip no table.ini above tests/ (an installed copy of the tests)');
if (ini_get('table.zero_copy') !== 'auto') die('skip the suite runs with table.zero_copy set on the command line'); ?>
--FILE--
<?php
// Lines "table.x=value" or ";table.x=value" (commented out: the default) of the file packagers install.
$listed = [];
require_once __DIR__ . '/../helpers.inc';
foreach (file(table_ini_file(), FILE_IGNORE_NEW_LINES) as $line) {
    if (preg_match('/^;?\s*(table\.[a-z_]+)\s*=\s*(.*?)\s*$/', $line, $m)) {
        $listed[$m[1]] = $m[2];
    }
}
$settings = ini_get_all('table');
ksort($listed);
ksort($settings);
echo 'missing from table.ini: ', implode(', ', array_keys(array_diff_key($settings, $listed))) ?: 'none', "\n";
echo 'not settings of the extension: ', implode(', ', array_keys(array_diff_key($listed, $settings))) ?: 'none', "\n";
foreach ($listed as $name => $value) {
    if (isset($settings[$name])) {
        echo $name, ' = ', var_export($value, true), $value === $settings[$name]['global_value'] ? '' : ' (the default is ' . var_export($settings[$name]['global_value'], true) . ')', "\n";
    }
}
?>
--EXPECT--
missing from table.ini: none
not settings of the extension: none
table.apcu_compat = '0'
table.compression = 'none'
table.compression_threshold = '512'
table.enabled = '1'
table.eviction_policy = 'gdsf'
table.lock_timeout = '0'
table.memory = '64M'
table.redis = ''
table.redis_allowed_classes = '*'
table.redis_max_stale = '1000'
table.redis_namespaces = ''
table.redis_on_error = 'throw'
table.redis_prefix = 'table:'
table.redis_timeout = '1000'
table.relay_alias = '0'
table.segment = ''
table.segment_dir = '/dev/shm'
table.segment_mode = '0600'
table.segment_recreate = '0'
table.serializer = 'php'
table.zero_copy = 'auto'
table.zero_copy_budget = ''
