--TEST--
Shm\Table: touch: extending an expiry keeps the entry alive past its original one
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;
require __DIR__ . '/../helpers.inc';

// The touches must come while the entries are alive (at least 2 seconds after the sets): a run with a
// stall that long in between is done again.
var_dump(...table_unstalled(1.5, function () {
    Table::set('extended', 'e', 2);
    Table::set('removed0', 'r0', 2);
    Table::set('removednull', 'rn', 2);
    Table::set('control', 'c', 2);
    return [Table::touch('extended', 100), Table::touch('removed0', 0), Table::touch('removednull', null)];
}));
sleep(3);
var_dump(Table::get('extended'), Table::get('removed0'), Table::get('removednull'), Table::get('control'));
$t = Table::ttl('extended');
var_dump($t >= 1 && $t <= 100, Table::ttl('removed0'), Table::ttl('removednull'));
// shortening works too
Table::set('shortened', 's', 1000);
Table::touch('shortened', 1);
sleep(2);
var_dump(Table::get('shortened'), Table::touch('shortened', 100));
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
string(1) "e"
string(2) "r0"
string(2) "rn"
NULL
bool(true)
bool(false)
bool(false)
NULL
bool(false)
