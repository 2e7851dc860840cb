--TEST--
Shm\Table: serializer: an object of a class the reader doesn't know comes back as __PHP_Incomplete_Class
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; table_skip_unless_pcntl(); ?>
--FILE--
<?php
use Shm\Table;
require __DIR__ . '/../helpers.inc';

table_fork(1, function () {
    eval('class OnlyInChild { public $x = 42; }');
    return Table::set('obj', new OnlyInChild);
});
var_dump(class_exists('OnlyInChild', false));
$o = Table::get('obj');
var_dump(get_class($o));
$props = (array) $o;
var_dump($props['__PHP_Incomplete_Class_Name'], $props['x']);
?>
--EXPECT--
bool(false)
string(22) "__PHP_Incomplete_Class"
string(11) "OnlyInChild"
int(42)
