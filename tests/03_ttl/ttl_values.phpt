--TEST--
Shm\Table: ttl: seconds left, or false when missing or when the entry never expires
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;
require __DIR__ . '/../helpers.inc';

var_dump(Table::ttl('missing'));
Table::set('never', 1);
Table::set('zero', 1, 0);
Table::set('null', 1, null);
var_dump(Table::ttl('never'), Table::ttl('zero'), Table::ttl('null'));
// What ttl() reports right after a set: judged in a run without a stall of a second or more in between
// (a slow run sets the key again).
$t = table_unstalled(1.0, function () {
    Table::set('100', 1, 100);
    return Table::ttl('100');
});
var_dump(is_int($t) && $t >= 1 && $t <= 100, $t >= 95);
$t = table_unstalled(1.0, function () {
    Table::set('2', 1, 2);
    return Table::ttl('2');
});
var_dump($t === 1 || $t === 2);
Table::set('max', 1, 2147483647);
$t = Table::ttl('max');
var_dump(is_int($t) && $t <= 2147483647 && $t >= 2147483600);
var_dump(Table::get('max'));
Table::set('k', 1, 50, 'ns');
var_dump(Table::ttl('k'), Table::ttl('k', 'ns') <= 50);
?>
--EXPECT--
bool(false)
bool(false)
bool(false)
bool(false)
bool(true)
bool(true)
bool(true)
bool(true)
int(1)
bool(false)
bool(true)
