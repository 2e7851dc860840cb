--TEST--
Shm\Table: ttl: an expired entry is a miss for get, exists, getWithMeta and ttl
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;
require __DIR__ . '/../helpers.inc';

Table::set('never', 'stays');
Table::set('long', 'stays too', 1000);
// A TTL of 2 keeps the entry for at least 2 seconds: judge its presence only in a run without a stall
// that long between the set and the reads (a slow run sets the keys again).
var_dump(...table_unstalled(1.5, function () {
    Table::set('short', 'gone soon', 2);
    Table::set('short', 'gone soon', 2, 'ns');
    return [Table::get('short'), Table::exists('short')];
}));
sleep(3);
var_dump(Table::get('short'));
var_dump(Table::exists('short'));
var_dump(Table::getWithMeta('short'));
var_dump(Table::ttl('short'));
var_dump(Table::get('short', 'ns'), Table::exists('short', 'ns'));
var_dump(Table::get('never'), Table::get('long'));
?>
--EXPECT--
string(9) "gone soon"
bool(true)
NULL
bool(false)
bool(false)
bool(false)
NULL
bool(false)
string(5) "stays"
string(9) "stays too"
