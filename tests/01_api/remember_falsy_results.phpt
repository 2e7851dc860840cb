--TEST--
Shm\Table: remember: null, false, 0 and '' results are stored and count as cached afterwards
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

$calls = 0;
foreach (['null' => null, 'false' => false, 'zero' => 0, 'empty' => '', 'array' => []] as $k => $v) {
    $compute = function () use (&$calls, $v) { $calls++; return $v; };
    $first = Table::remember($k, $compute);
    $second = Table::remember($k, $compute);
    echo $k, ': ', var_export($first, true), ' ', var_export($second, true), ' exists=', var_export(Table::exists($k), true), "\n";
}
var_dump($calls);
?>
--EXPECT--
null: NULL NULL exists=true
false: false false exists=true
zero: 0 0 exists=true
empty: '' '' exists=true
array: array (
) array (
) exists=true
int(5)
