--TEST--
Shm\Table: APCu API: apcu_delete(APCUIterator) deletes what the iterator has left to hand out; APCu's errors for a bad iterator
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; require __DIR__ . '/apcu.inc'; table_apcu_skipif(); ?>
--ENV--
PHP_INI_SCAN_DIR={PWD}/no-conf.d
--INI--
table.apcu_compat=1
apc.enable_cli=1
--FILE--
<?php
require __DIR__ . '/apcu.inc';
function left(): string
{
    $k = array_keys(iterator_to_array(new APCUIterator(null, APC_ITER_NONE)));
    sort($k);
    return count($k) . ' ' . implode(',', array_slice($k, 0, 5));
}
for ($i = 0; $i < 41; $i++) {
    apcu_store("key$i", "value$i");
}
Shm\Table::set('key10', 'not apcu');
// A fresh iterator: everything it matches (APCu's iterator_005), in chunks.
$it = new APCUIterator('/key[0-9]0/', APC_ITER_ALL, 2);
var_dump(apcu_delete($it), left(), Shm\Table::get('key10'));
var_dump(iterator_to_array($it));   // rewound: nothing matches any more
// From where an iterator stands: what it has handed out is kept.
$it = new APCUIterator('/^key[0-9]$/', APC_ITER_KEY, 3);
$it->rewind();
$kept = [$it->key()];
$it->next();
$kept[] = $it->key();
$it->next();
var_dump(apcu_delete($it), apcu_exists($kept), count(iterator_to_array(new APCUIterator('/^key[0-9]$/'))));
// An exhausted iterator deletes nothing.
$it = new APCUIterator();
foreach ($it as $_) {
}
var_dump(apcu_delete($it), (int) left());

// An iterator whose constructor did not run, and other bad arguments.
class NoCtor extends APCUIterator { public function __construct() {} }
$bad = new NoCtor();
foreach (['rewind', 'current', 'key', 'next', 'valid', 'getTotalHits', 'getTotalSize', 'getTotalCount'] as $m) {
    try {
        $bad->$m();
    } catch (Error $e) {
        echo "$m: ", $e->getMessage(), "\n";
    }
}
try {
    apcu_delete($bad);
} catch (Error $e) {
    echo "apcu_delete: ", $e->getMessage(), "\n";
}
$it = new APCUIterator(null, APC_ITER_ALL, 0, 3);
try {
    $it->valid();
} catch (Error $e) {
    echo $e->getMessage(), "\n";
}
var_dump(apcu_delete(1.5));
echo trim(table_apcu_php('apcu_delete(new ArrayObject([])); echo "not reached\n";', [], ['-d', 'table.apcu_compat=1', '-d', 'apc.enable_cli=1'])), "\n";
echo trim(table_apcu_php('new APCUIterator(null, APC_ITER_ALL, -1); echo "not reached\n";', [], ['-d', 'table.apcu_compat=1', '-d', 'apc.enable_cli=1'])), "\n";
echo trim(table_apcu_php('new APCUIterator(null, APC_ITER_ALL + 1); echo "not reached\n";', [], ['-d', 'table.apcu_compat=1', '-d', 'apc.enable_cli=1'])), "\n";
?>
--EXPECTF--
bool(true)
string(30) "37 key0,key1,key11,key12,key13"
string(8) "not apcu"
array(0) {
}
bool(true)
array(2) {
  ["%s"]=>
  bool(true)
  ["%s"]=>
  bool(true)
}
int(2)
bool(true)
int(29)
rewind: Trying to use uninitialized APCUIterator
current: Trying to use uninitialized APCUIterator
key: Trying to use uninitialized APCUIterator
next: Trying to use uninitialized APCUIterator
valid: Trying to use uninitialized APCUIterator
getTotalHits: Trying to use uninitialized APCUIterator
getTotalSize: Trying to use uninitialized APCUIterator
getTotalCount: Trying to use uninitialized APCUIterator
apcu_delete: Trying to use uninitialized APCUIterator

Warning: APCUIterator::__construct(): APCUIterator invalid list type in %s on line %d
Trying to use uninitialized APCUIterator

Warning: apcu_delete(): apc_delete() expects a string, array of strings, or APCIterator instance in %s on line %d
bool(false)
Fatal error: apcu_delete(): apc_delete object argument must be instance of APCUIterator. in %s
Fatal error: APCUIterator::__construct(): APCUIterator chunk size must be 0 or greater in %s
Fatal error: APCUIterator::__construct(): APCUIterator format is invalid in %s
