--TEST--
Shm\Table: namespaces: stats()['namespaces'] lists '' and every non-empty namespace with count and memory
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

$st = Table::stats()['namespaces'];
var_dump($st);
Table::set('a', 'x', null, 'alpha');
Table::set('b', 'y', null, 'alpha');
Table::set('c', str_repeat('z', 2000), null, 'beta');
Table::set('gone', 1, null, 'gamma');
Table::delete('gone', 'gamma');
$st = Table::stats()['namespaces'];
ksort($st);
foreach ($st as $name => $info) {
    echo var_export($name, true), ': ', implode(',', array_keys($info)), ' count=', $info['count'],
        ' memory=', $info['memory'] === Table::memory($name === '' ? null : $name) ? 'memory()' : 'MISMATCH', "\n";
}
var_dump($st['beta']['memory'] >= 2000);
?>
--EXPECT--
array(1) {
  [""]=>
  array(2) {
    ["count"]=>
    int(0)
    ["memory"]=>
    int(0)
  }
}
'': count,memory count=0 memory=memory()
'alpha': count,memory count=2 memory=memory()
'beta': count,memory count=1 memory=memory()
bool(true)
