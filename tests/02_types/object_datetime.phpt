--TEST--
Shm\Table: types: DateTime, DateTimeImmutable and DateInterval round-trip
--INI--
date.timezone=UTC
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

$d = new DateTimeImmutable('2024-02-29 13:14:15.123456', new DateTimeZone('Europe/Paris'));
Table::set('d', $d);
$got = Table::get('d');
var_dump(get_class($got), $got == $d, $got->format('Y-m-d H:i:s.u e'));
Table::set('m', new DateTime('@0'));
var_dump(Table::get('m')->getTimestamp());
Table::set('i', new DateInterval('P1DT2H'));
var_dump(Table::get('i')->d, Table::get('i')->h);
?>
--EXPECT--
string(17) "DateTimeImmutable"
bool(true)
string(39) "2024-02-29 13:14:15.123456 Europe/Paris"
int(0)
int(1)
int(2)
