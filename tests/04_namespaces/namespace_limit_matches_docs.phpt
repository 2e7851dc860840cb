--TEST--
Shm\Table: namespaces: the limit is table.memory / 64 KiB named namespaces, and its error names the method
--INI--
table.memory=8M
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

// 8M / 64 KiB = 128 named namespaces, besides the default one; each holds an entry, so none is reused.
$made = 0;
for ($i = 0; $i < 128; $i++) {
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
int(128)
int(128)
Shm\Table::set(): too many namespaces (at most 128); raise table.memory
Shm\Table::increment(): too many namespaces (at most 128); raise table.memory
Shm\Table::add(): too many namespaces (at most 128); raise table.memory
bool(true)
string(7) "default"
bool(true)
bool(true)
string(3) "new"
NULL
int(8)
int(128)
