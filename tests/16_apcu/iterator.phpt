--TEST--
Shm\Table: APCu API: APCUIterator walks the apcu namespace only: regex, array of keys, chunks, totals, key() and current(), values of every kind
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; require __DIR__ . '/apcu.inc'; table_apcu_skipif(); ?>
--ENV--
PHP_INI_SCAN_DIR={PWD}/no-conf.d
--INI--
table.apcu_compat=1
apc.enable_cli=1
--FILE--
<?php
function keys(Iterator $it): string
{
    $k = [];
    foreach ($it as $key => $item) {
        $k[] = $key;
    }
    sort($k);
    return implode(',', $k);
}

for ($i = 0; $i < 41; $i++) {
    apcu_store("key$i", "value$i");
}
// Other namespaces are not APCu's.
Shm\Table::set('key99', 'not apcu');
Shm\Table::set('key98', 'not apcu', null, 'other');

$it = new APCUIterator();
var_dump(iterator_count($it), $it->getTotalCount(), $it->getTotalHits(), $it->getTotalSize() > 41 * 6);
echo keys(new APCUIterator('/key[0-9]0/')), "\n";
echo keys(new APCUIterator('/^KEY1$/i')), "\n";
echo keys(new APCUIterator(['key1', 'key40', 'missing', 7, 'key99'])), "\n";
echo keys(new APCUIterator('')), "|", keys(new APCUIterator([])), "|", keys(new APCUIterator(null, APC_ITER_NONE, 0, APC_LIST_DELETED)), "\n";
// Every chunk size sees every entry once.
foreach ([1, 2, 7, 40, 41, 1000] as $chunk) {
    $seen = [];
    foreach (new APCUIterator(null, APC_ITER_KEY, $chunk) as $k => $v) {
        $seen[$k] = ($seen[$k] ?? 0) + 1;
    }
    echo $chunk, ': ', count($seen), ' ', max($seen), "\n";
}
// The totals are those of the search, counted once.
$it = new APCUIterator('/^key1/');
var_dump($it->getTotalCount());
apcu_store('key1000', 1);
var_dump($it->getTotalCount(), (new APCUIterator('/^key1/'))->getTotalCount());

// Values of every kind come back as apcu_fetch() gives them.
apcu_clear_cache();
$o = new ArrayObject([1]);
$ref = [1];
$ref[1] = &$ref[0];
apcu_store(['int' => 5, 'float' => 1.5, 'null' => null, 'bool' => false, 'array' => ['a' => [1, 2]], 'object' => $o, 'ref' => $ref]);
$vals = [];
foreach (new APCUIterator(null, APC_ITER_VALUE) as $k => $item) {
    $vals[$k] = $item['value'];
}
ksort($vals);
var_dump($vals == array_map(fn ($k) => apcu_fetch($k), array_combine(array_keys($vals), array_keys($vals))));
$vals['ref'][0] = 9;
var_dump($vals['ref'][1], get_class($vals['object']));

// key() and current() keep the item they hand out, even once it is deleted (APCu's iterator_009).
apcu_clear_cache();
apcu_store('foo', 0);
$it = new APCUIterator();
$it->rewind();
var_dump($it->valid(), $it->key());
apcu_delete('foo');
var_dump($it->key(), $it->current()['key']);
$it->next();
var_dump($it->valid());
try {
    $it->key();
} catch (Error $e) {
    echo $e->getMessage(), "\n";
}
try {
    $it->current();
} catch (Error $e) {
    echo $e->getMessage(), "\n";
}
// Expired entries are not listed.
apcu_store('gone', 1, -1);
apcu_store('here', 1, 100);
echo keys(new APCUIterator()), "\n";
var_dump((new ReflectionClass('APCUIterator'))->getExtensionName(), new APCUIterator() instanceof Iterator);
try {
    clone new APCUIterator();
} catch (Error $e) {
    echo $e->getMessage(), "\n";
}
?>
--EXPECT--
int(41)
int(41)
int(0)
bool(true)
key10,key20,key30,key40
key1
key1,key40
key0,key1,key10,key11,key12,key13,key14,key15,key16,key17,key18,key19,key2,key20,key21,key22,key23,key24,key25,key26,key27,key28,key29,key3,key30,key31,key32,key33,key34,key35,key36,key37,key38,key39,key4,key40,key5,key6,key7,key8,key9||
1: 41 1
2: 41 1
7: 41 1
40: 41 1
41: 41 1
1000: 41 1
int(11)
int(11)
int(12)
bool(true)
int(9)
string(11) "ArrayObject"
bool(true)
string(3) "foo"
string(3) "foo"
string(3) "foo"
bool(false)
Cannot call key() on invalid iterator
Cannot call current() on invalid iterator
here
string(4) "apcu"
bool(true)
Trying to clone an uncloneable object of class APCUIterator
