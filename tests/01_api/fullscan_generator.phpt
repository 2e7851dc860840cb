--TEST--
Shm\Table: fullscan: a real Generator yielding $namespace => $key (null for the default namespace)
--INI--
table.memory=2M
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

$g = Table::fullscan();
var_dump($g instanceof Generator, get_class($g));
var_dump(iterator_count($g));

Table::set('a', 1);
Table::set('b', 2);
Table::set('a', 3, null, 'ns1');
Table::set('c', 4, null, 'ns2');
Table::set("n\0ul", 5, null, "n\0s");

$seen = [];
foreach (Table::fullscan() as $ns => $key) {
    if ($ns !== null && !is_string($ns)) {
        echo "bad namespace type: ", get_debug_type($ns), "\n";
    }
    $seen[] = ($ns === null ? '(default)' : str_replace("\0", '\0', $ns)) . ' => ' . str_replace("\0", '\0', $key);
}
sort($seen);
echo implode("\n", $seen), "\n";
?>
--EXPECT--
bool(true)
string(9) "Generator"
int(0)
(default) => a
(default) => b
n\0s => n\0ul
ns1 => a
ns2 => c
