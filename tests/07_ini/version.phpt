--TEST--
Shm\Table: ini: the extension reports one version through ReflectionExtension and phpversion()
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
$ext = new ReflectionExtension('table');
var_dump($ext->getName());
$v = $ext->getVersion();
var_dump($v === phpversion('table'), is_string($v), (bool) preg_match('/^\d+\.\d+\.\d+/', (string) $v));
var_dump(in_array('Shm\Table', $ext->getClassNames(), true), in_array('Shm\TableException', $ext->getClassNames(), true));
$ini = $ext->getINIEntries();
ksort($ini);
var_dump(array_keys($ini));
ob_start();
$ext->info();
$info = ob_get_clean();
var_dump(str_contains($info, $v));
?>
--EXPECT--
string(5) "table"
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
array(22) {
  [0]=>
  string(17) "table.apcu_compat"
  [1]=>
  string(17) "table.compression"
  [2]=>
  string(27) "table.compression_threshold"
  [3]=>
  string(13) "table.enabled"
  [4]=>
  string(21) "table.eviction_policy"
  [5]=>
  string(18) "table.lock_timeout"
  [6]=>
  string(12) "table.memory"
  [7]=>
  string(11) "table.redis"
  [8]=>
  string(27) "table.redis_allowed_classes"
  [9]=>
  string(21) "table.redis_max_stale"
  [10]=>
  string(22) "table.redis_namespaces"
  [11]=>
  string(20) "table.redis_on_error"
  [12]=>
  string(18) "table.redis_prefix"
  [13]=>
  string(19) "table.redis_timeout"
  [14]=>
  string(17) "table.relay_alias"
  [15]=>
  string(13) "table.segment"
  [16]=>
  string(17) "table.segment_dir"
  [17]=>
  string(18) "table.segment_mode"
  [18]=>
  string(22) "table.segment_recreate"
  [19]=>
  string(16) "table.serializer"
  [20]=>
  string(15) "table.zero_copy"
  [21]=>
  string(22) "table.zero_copy_budget"
}
bool(true)
