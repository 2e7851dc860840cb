--TEST--
Shm\Table: remember: a computed value that can never fit is returned uncached and counted in stats()['oom'] (as apcu_entry() does)
--INI--
table.memory=2M
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

$huge = str_repeat('x', 4 * 1024 * 1024);
$oom = Table::stats()['oom'];
$calls = 0;
$got = Table::remember('big', function () use ($huge, &$calls) { $calls++; return $huge; });
var_dump($got === $huge, $calls, Table::exists('big'), Table::stats()['oom'] - $oom);
/* Not cached, so the next call computes again, and counts again. */
$got = Table::remember('big', function () use ($huge, &$calls) { $calls++; return [$huge]; });
var_dump($got === [$huge], $calls, Table::exists('big'), Table::stats()['oom'] - $oom);
/* The claim was released: a small value for the same key is computed and stored at once. */
var_dump(Table::remember('big', fn() => 'small'), Table::get('big'));
/* In a namespace too. */
var_dump(strlen(Table::remember('big', fn() => $huge, 60, 'ns')), Table::exists('big', 'ns'));
/* set() of the same value still throws: there the caller has the value already. */
try {
    Table::set('big2', $huge);
} catch (Shm\TableException $e) {
    echo get_class($e), "\n";
}
?>
--EXPECT--
bool(true)
int(1)
bool(false)
int(1)
bool(true)
int(2)
bool(false)
int(2)
string(5) "small"
string(5) "small"
int(4194304)
bool(false)
Shm\TableException
