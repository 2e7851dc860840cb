--TEST--
Shm\Table: APCu API: APCUIterator's formats give APCu's fields in APCu's order, for every APC_ITER_* bit
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; require __DIR__ . '/apcu.inc'; table_apcu_skipif(); ?>
--ENV--
PHP_INI_SCAN_DIR={PWD}/no-conf.d
--INI--
table.apcu_compat=1
apc.enable_cli=1
--FILE--
<?php
// APCu's iterator_006, in an order of its own (APCu's follows its hash slots).
$formats = [APC_ITER_KEY, APC_ITER_VALUE, APC_ITER_NUM_HITS, APC_ITER_MTIME, APC_ITER_CTIME, APC_ITER_DTIME,
    APC_ITER_ATIME, APC_ITER_REFCOUNT, APC_ITER_MEM_SIZE, APC_ITER_TTL, APC_ITER_NONE, APC_ITER_ALL & ~APC_ITER_TYPE,
    APC_ITER_ALL & ~APC_ITER_TTL & ~APC_ITER_TYPE, APC_ITER_KEY | APC_ITER_NUM_HITS | APC_ITER_MEM_SIZE, APC_ITER_TYPE];
$its = [];
foreach ($formats as $f) {
    $its[] = new APCUIterator(null, $f);   // made before the stores: they see them all the same
}
$t0 = time();
for ($i = 0; $i < 11; $i++) {
    apcu_store("key$i", "value$i", $i == 3 ? 100 : 0);
}
foreach ($its as $n => $it) {
    $items = iterator_to_array($it);
    ksort($items, SORT_NATURAL);
    echo "#$n ", count($items), ": ", implode(',', array_keys($items['key0'])), "\n";
}
$all = iterator_to_array(new APCUIterator());
$a = $all['key3'];
var_dump(array_keys($a) === ['type', 'key', 'value', 'num_hits', 'mtime', 'creation_time', 'deletion_time',
    'access_time', 'ref_count', 'mem_size', 'ttl']);
var_dump($a['type'], $a['key'], $a['value'], $a['num_hits'], $a['deletion_time'], $a['ref_count'], $a['ttl'],
    $all['key4']['ttl'], $a['mtime'] >= $t0 && $a['mtime'] <= time(), $a['creation_time'] === $a['mtime'],
    $a['access_time'] === $a['mtime'], is_int($a['mem_size']) && $a['mem_size'] > 0);
// An overwrite keeps creation_time (mtime is the last write); the value is what apcu_fetch() gives.
apcu_store('key4', ['new']);
var_dump(iterator_to_array(new APCUIterator(['key4'], APC_ITER_VALUE)));
?>
--EXPECT--
#0 11: key
#1 11: value
#2 11: num_hits
#3 11: mtime
#4 11: creation_time
#5 11: deletion_time
#6 11: access_time
#7 11: ref_count
#8 11: mem_size
#9 11: ttl
#10 11: 
#11 11: key,value,num_hits,mtime,creation_time,deletion_time,access_time,ref_count,mem_size,ttl
#12 11: key,value,num_hits,mtime,creation_time,deletion_time,access_time,ref_count,mem_size
#13 11: key,num_hits,mem_size
#14 11: type
bool(true)
string(4) "user"
string(4) "key3"
string(6) "value3"
int(0)
int(0)
int(0)
int(100)
int(0)
bool(true)
bool(true)
bool(true)
bool(true)
array(1) {
  ["key4"]=>
  array(1) {
    ["value"]=>
    array(1) {
      [0]=>
      string(3) "new"
    }
  }
}
