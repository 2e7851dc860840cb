--TEST--
Shm\Table: multiprocess: a worker that exits inside remember() doesn't block the key for the others
--INI--
zend.signal_check=1
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; table_skip_unless_pcntl(); ?>
--FILE--
<?php
use Shm\Table;
require __DIR__ . '/../helpers.inc';

$child = table_child_start(function () {
    Table::remember('k', function () {
        Table::set('child started computing', true);
        exit(3);
    });
});
table_child_wait($child, 3);
var_dump(Table::get('child started computing'), Table::exists('k'));
var_dump(Table::remember('k', fn() => 'computed by the parent'));
var_dump(Table::get('k'));
// and a second child computes another key normally
$r = table_fork(1, fn() => Table::remember('k2', fn() => 'by child'));
var_dump($r[0], Table::get('k2'));
?>
--EXPECT--
bool(true)
bool(false)
string(22) "computed by the parent"
string(22) "computed by the parent"
string(8) "by child"
string(8) "by child"
