--TEST--
Shm\Table: cas: floats compare with === (0.0 === -0.0, NAN !== NAN)
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

var_dump(0.0 === -0.0, NAN === NAN);
Table::set('z', 0.0);
var_dump(Table::cas('z', -0.0, 'swapped'), Table::get('z'));
Table::set('n', NAN);
var_dump(Table::cas('n', NAN, 'swapped'), is_nan(Table::get('n')));
?>
--EXPECT--
bool(true)
bool(false)
bool(true)
string(7) "swapped"
bool(false)
bool(true)
