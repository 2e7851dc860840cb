--TEST--
Shm\Table: deleteIf: deletes only when the stored value is what the caller expects (cas() comparison)
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

// basics: the right value deletes, and only once
Table::set('lock', 'owner-a');
var_dump(Table::deleteIf('lock', 'owner-a'), Table::exists('lock'), Table::deleteIf('lock', 'owner-a'));

// a mismatch leaves the entry, value and TTL untouched
Table::set('lock', 'owner-b', 100);
var_dump(Table::deleteIf('lock', 'owner-a'), Table::get('lock'), Table::ttl('lock') > 0);

// === on scalars, as cas(): no loose comparison, no type juggling
Table::set('n', 1);
var_dump(Table::deleteIf('n', '1'), Table::deleteIf('n', 1.0), Table::deleteIf('n', true), Table::exists('n'));
var_dump(Table::deleteIf('n', 1), Table::exists('n'));
Table::set('f', 0.0);
var_dump(Table::deleteIf('f', -0.0), Table::exists('f'));       // 0.0 === -0.0
Table::set('nan', NAN);
var_dump(Table::deleteIf('nan', NAN), Table::exists('nan'));    // NAN !== NAN
Table::set('null', null);
var_dump(Table::deleteIf('null', false), Table::deleteIf('null', null), Table::exists('null'));

// arrays compare with === (order matters), objects by their serialized form, as cas()
Table::set('a', ['x' => 1, 'y' => 2]);
var_dump(Table::deleteIf('a', ['y' => 2, 'x' => 1]), Table::deleteIf('a', ['x' => 1, 'y' => 2]), Table::exists('a'));
Table::set('o', new ArrayObject([1, 2]));
var_dump(Table::deleteIf('o', new ArrayObject([1, 3])), Table::deleteIf('o', new ArrayObject([1, 2])), Table::exists('o'));

// a missing key is false
var_dump(Table::deleteIf('missing', 'x'));

// namespaces: only the namespace named is looked at
Table::set('k', 'v');
Table::set('k', 'v', null, 'ns1');
Table::set('k', 'v', null, 'ns2');
var_dump(Table::deleteIf('k', 'v', 'ns1'), Table::get('k'), Table::get('k', 'ns1'), Table::get('k', 'ns2'));
var_dump(Table::deleteIf('k', 'v', 'never-made'), Table::namespaces() === array_values(array_unique(Table::namespaces())));
var_dump(in_array('never-made', Table::namespaces(), true));
var_dump(Table::deleteIf(namespace: 'ns2', key: 'k', expected: 'v'), Table::count('ns2'));

// deletes count in stats() like delete()
$before = Table::stats()['deletes'];
Table::set('s', 1);
Table::deleteIf('s', 2);
Table::deleteIf('s', 1);
var_dump(Table::stats()['deletes'] - $before);

// an expired entry is missing: deleteIf() is false even with the value it held
Table::set('short', 'owner', 1);
sleep(2);
var_dump(Table::deleteIf('short', 'owner'), Table::exists('short'));
?>
--EXPECT--
bool(true)
bool(false)
bool(false)
bool(false)
string(7) "owner-b"
bool(true)
bool(false)
bool(false)
bool(false)
bool(true)
bool(true)
bool(false)
bool(true)
bool(false)
bool(false)
bool(true)
bool(false)
bool(true)
bool(false)
bool(false)
bool(true)
bool(false)
bool(false)
bool(true)
bool(false)
bool(false)
bool(true)
string(1) "v"
NULL
string(1) "v"
bool(false)
bool(true)
bool(false)
bool(true)
int(0)
int(1)
bool(false)
bool(false)
