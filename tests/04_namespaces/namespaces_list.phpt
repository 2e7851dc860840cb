--TEST--
Shm\Table: namespaces: namespaces() lists the named namespaces holding at least one entry
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

function ns() { $n = Table::namespaces(); sort($n, SORT_STRING); return implode(',', $n); }
echo '[', ns(), "]\n";
Table::set('k', 1);
echo '[', ns(), "]\n";
Table::set('k', 1, null, 'users');
Table::set('k', 1, null, 'posts');
Table::set('x', 1, null, 'posts');
Table::increment('k', 1, null, 'counters');
echo '[', ns(), "]\n";
// a namespace whose last entry is deleted is not listed
Table::delete('k', 'users');
echo '[', ns(), "]\n";
Table::delete('k', 'posts');
echo '[', ns(), "]\n";
Table::deleteMany(['x'], 'posts');
echo '[', ns(), "]\n";
// nor one that was only read
Table::get('k', 'readonly');
Table::exists('k', 'readonly2');
Table::count('readonly3');
echo '[', ns(), "]\n";
// it comes back when written again
Table::set('k', 1, null, 'users');
echo '[', ns(), "]\n";
// 255-byte names and odd bytes are fine
$long = str_repeat('n', 255);
Table::set('k', 1, null, $long);
Table::set('k', 1, null, "a\0b");
$list = Table::namespaces();
var_dump(in_array($long, $list, true), in_array("a\0b", $list, true), count($list));
?>
--EXPECT--
[]
[]
[counters,posts,users]
[counters,posts]
[counters,posts]
[counters]
[counters]
[counters,users]
bool(true)
bool(true)
int(4)
