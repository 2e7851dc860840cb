--TEST--
Shm\Table: APCu API: APCUIterator over 10,000 entries of 3 KiB (APCu's apc54_018): totals, current() at once, and every entry once in chunks
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; require __DIR__ . '/apcu.inc'; table_apcu_skipif(); ?>
--ENV--
PHP_INI_SCAN_DIR={PWD}/no-conf.d
--INI--
table.apcu_compat=1
apc.enable_cli=1
table.memory=96M
--FILE--
<?php
$prefix = 'test-niko-asdfasdfasdfkjasdflkasjdfasf';
for ($i = 0; $i < 10000; $i++) {
    if (!apcu_store($prefix . $i, str_repeat(md5((string) $i), 100))) {
        echo "store $i failed\n";
    }
}
$it = new APCUIterator('#^test-niko-asdfasdfasdfkjasdflkasjdfasf#');
var_dump($it->getTotalCount(), $it->getTotalSize() >= 10000 * 3200);
$c = $it->current();
var_dump(array_keys($c), strlen($c['value']), $c['value'] === apcu_fetch($c['key']));
$seen = [];
foreach (new APCUIterator('#^test-niko#', APC_ITER_KEY | APC_ITER_MEM_SIZE, 333) as $k => $v) {
    $seen[$k] = true;
}
var_dump(count($seen));
var_dump(apcu_delete(new APCUIterator('#9$#')), (new APCUIterator())->getTotalCount());
?>
--EXPECT--
int(10000)
bool(true)
array(11) {
  [0]=>
  string(4) "type"
  [1]=>
  string(3) "key"
  [2]=>
  string(5) "value"
  [3]=>
  string(8) "num_hits"
  [4]=>
  string(5) "mtime"
  [5]=>
  string(13) "creation_time"
  [6]=>
  string(13) "deletion_time"
  [7]=>
  string(11) "access_time"
  [8]=>
  string(9) "ref_count"
  [9]=>
  string(8) "mem_size"
  [10]=>
  string(3) "ttl"
}
int(3200)
bool(true)
int(10000)
bool(true)
int(9000)
