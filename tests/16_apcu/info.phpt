--TEST--
Shm\Table: APCu API: apcu_cache_info, apcu_sma_info and apcu_key_info have APCu's shapes
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; require __DIR__ . '/apcu.inc'; table_apcu_skipif(); ?>
--ENV--
PHP_INI_SCAN_DIR={PWD}/no-conf.d
--INI--
table.apcu_compat=1
apc.enable_cli=1
apc.ttl=7
--FILE--
<?php
apcu_store('a', 'x', 50);
apcu_store('b', [1, 2, 3]);
Shm\Table::set('not_apcu', 1);
apcu_fetch('a');
$i = apcu_cache_info();
echo implode(',', array_keys($i)), "\n";
var_dump($i['ttl'], $i['num_entries'], $i['memory_type'], is_float($i['num_hits']), is_float($i['mem_size']) && $i['mem_size'] > 0,
    $i['num_hits'] >= 1, $i['expunges'], $i['start_time'] <= time(), count($i['cache_list']), $i['deleted_list']);
$list = array_column($i['cache_list'], null, 'info');
ksort($list);
echo implode(',', array_keys($list)), "\n";
echo implode(',', array_keys($list['a'])), "\n";
var_dump($list['a']['ttl'], $list['b']['ttl'], $list['a']['creation_time'] <= time(), $list['a']['mem_size'] > 0);
$l = apcu_cache_info(true);
var_dump(isset($l['cache_list']), $l['num_entries']);
$s = apcu_sma_info();
echo implode(',', array_keys($s)), "\n";
var_dump($s['num_seg'], $s['seg_size'] > 0, $s['avail_mem'] > 0 && $s['avail_mem'] <= $s['seg_size'], $s['block_lists']);
var_dump(array_keys(apcu_sma_info(true)));
$k = apcu_key_info('a');
echo implode(',', array_keys($k)), "\n";
var_dump($k['ttl'], $k['creation_time'] <= time(), apcu_key_info('missing'), apcu_key_info('not_apcu'));
?>
--EXPECT--
num_slots,ttl,num_hits,num_misses,num_inserts,num_entries,expunges,start_time,mem_size,memory_type,cache_list,deleted_list,slot_distribution
int(7)
int(2)
string(4) "mmap"
bool(true)
bool(true)
bool(true)
float(0)
bool(true)
int(2)
array(0) {
}
a,b
info,ttl,num_hits,mtime,creation_time,deletion_time,access_time,ref_count,mem_size
int(50)
int(0)
bool(true)
bool(true)
bool(false)
int(2)
num_seg,seg_size,avail_mem,block_lists
int(1)
bool(true)
bool(true)
array(1) {
  [0]=>
  array(0) {
  }
}
array(3) {
  [0]=>
  string(7) "num_seg"
  [1]=>
  string(8) "seg_size"
  [2]=>
  string(9) "avail_mem"
}
hits,access_time,mtime,creation_time,deletion_time,ttl,refs
int(50)
bool(true)
NULL
NULL
