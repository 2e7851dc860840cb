--TEST--
Shm\Table: namespaces: the limit is 65,533 named namespaces whatever table.memory, and its error names the method
--INI--
table.memory=16M
table.eviction_policy=noeviction
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

// 65,533 named namespaces besides the default one (ids are 16 bits); each holds an entry, so none is reused.
$made = 0;
for ($i = 0; $i < 65533; $i++) {
    if (Table::set('k', $i, null, "ns$i")) {
        $made++;
    }
}
var_dump($made, count(Table::namespaces()));
foreach (['set' => fn() => Table::set('k', 1, null, 'one-more'),
          'increment' => fn() => Table::increment('n', 1, null, 'one-more'),
          'add' => fn() => Table::add('k', 1, null, 'one-more')] as $method => $call) {
    try {
        $call();
        echo "$method: no exception\n";
    } catch (Shm\TableException $e) {
        echo $e->getMessage(), "\n";
    }
}
// The default namespace does not count against the limit, and works.
var_dump(Table::set('k', 'default'), Table::get('k'));
// Once one namespace is empty, its id is reused for the new name.
var_dump(Table::delete('k', 'ns7'), Table::set('k', 'new', null, 'one-more'), Table::get('k', 'one-more'));
var_dump(Table::get('k', 'ns7'), Table::get('k', 'ns8'), count(Table::namespaces()));
?>
--EXPECT--
int(65533)
int(65533)
Shm\Table::set(): too many namespaces (at most 65533, and none of them is empty)
Shm\Table::increment(): too many namespaces (at most 65533, and none of them is empty)
Shm\Table::add(): too many namespaces (at most 65533, and none of them is empty)
bool(true)
string(7) "default"
bool(true)
bool(true)
string(3) "new"
NULL
int(8)
int(65533)
