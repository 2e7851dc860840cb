--TEST--
Shm\Table: namespaces: null is the default namespace, which no name selects
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

Table::set('k', 'default');
foreach (['default', '0', ' ', 'null', "\0"] as $ns) {
    echo var_export($ns, true), ': ', var_export(Table::get('k', $ns), true), "\n";
}
var_dump(Table::get('k', null), Table::get(key: 'k', namespace: null));
var_dump(Table::namespaces());
Table::set('k', 'named', null, 'default');
var_dump(Table::get('k'), Table::get('k', 'default'), Table::namespaces());
?>
--EXPECT--
'default': NULL
'0': NULL
' ': NULL
'null': NULL
'' . "\0" . '': NULL
string(7) "default"
string(7) "default"
array(0) {
}
string(7) "default"
string(5) "named"
array(1) {
  [0]=>
  string(7) "default"
}
