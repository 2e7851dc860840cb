--TEST--
Shm\Table: cas: swaps only when the stored scalar is identical (===) to $expected
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

// missing key
var_dump(Table::cas('k', null, 1), Table::exists('k'));

Table::set('k', 1);
echo "int 1:\n";
var_dump(Table::cas('k', '1', 2), Table::cas('k', 1.0, 2), Table::cas('k', true, 2), Table::cas('k', 2, 3));
var_dump(Table::get('k'));
var_dump(Table::cas('k', 1, 2), Table::get('k'));
var_dump(Table::cas('k', 1, 3), Table::get('k'));

echo "string:\n";
Table::set('s', 'abc');
var_dump(Table::cas('s', 'ABC', 'x'), Table::cas('s', 'abc ', 'x'), Table::cas('s', 'abc', 'def'), Table::get('s'));
Table::set('e', '');
var_dump(Table::cas('e', null, 'x'), Table::cas('e', false, 'x'), Table::cas('e', 0, 'x'), Table::cas('e', '', 'x'), Table::get('e'));
Table::set('num', '10');
var_dump(Table::cas('num', 10, 'x'), Table::cas('num', '1e1', 'x'), Table::cas('num', '10', 11), Table::get('num'));

echo "null/bool:\n";
Table::set('n', null);
var_dump(Table::cas('n', false, 1), Table::cas('n', 0, 1), Table::cas('n', '', 1), Table::cas('n', null, 'was null'), Table::get('n'));
Table::set('b', false);
var_dump(Table::cas('b', null, 1), Table::cas('b', true, 1), Table::cas('b', false, true), Table::get('b'));

echo "float:\n";
Table::set('f', 0.1 + 0.2);
var_dump(Table::cas('f', 0.3, 1), Table::cas('f', 0.1 + 0.2, 1.5), Table::get('f'));
Table::set('z', 0.0);
var_dump(Table::cas('z', 0, 1), Table::cas('z', 0.0, 'zero'), Table::get('z'));

echo "type change and namespaces:\n";
Table::set('t', 5, null, 'ns');
var_dump(Table::cas('t', 5, [5]));
var_dump(Table::cas('t', 5, [5], 'ns'), Table::get('t', 'ns'));
var_dump(Table::cas('t', [5], 6, 'ns'), Table::get('t', 'ns'));
var_dump(Table::cas(key: 't', expected: 6, new: 7, namespace: 'ns'), Table::get('t', 'ns'));
?>
--EXPECT--
bool(false)
bool(false)
int 1:
bool(false)
bool(false)
bool(false)
bool(false)
int(1)
bool(true)
int(2)
bool(false)
int(2)
string:
bool(false)
bool(false)
bool(true)
string(3) "def"
bool(false)
bool(false)
bool(false)
bool(true)
string(1) "x"
bool(false)
bool(false)
bool(true)
int(11)
null/bool:
bool(false)
bool(false)
bool(false)
bool(true)
string(8) "was null"
bool(false)
bool(false)
bool(true)
bool(true)
float:
bool(false)
bool(true)
float(1.5)
bool(false)
bool(true)
string(4) "zero"
type change and namespaces:
bool(false)
bool(true)
array(1) {
  [0]=>
  int(5)
}
bool(true)
int(6)
bool(true)
int(7)
