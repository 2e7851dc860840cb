--TEST--
Shm\Table: remember: an exception from $compute propagates and nothing is stored
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

try {
    Table::remember('k', function () { throw new DomainException('compute failed'); });
} catch (DomainException $e) {
    echo get_class($e), ': ', $e->getMessage(), "\n";
}
var_dump(Table::exists('k'), Table::count());
// the key is not left claimed: the next call computes at once
var_dump(Table::remember('k', fn() => 'second try'));

// a result that can't be stored throws and leaves nothing either
try {
    Table::remember('c', fn() => fn() => 1);
} catch (Throwable $e) {
    echo get_class($e), ': ', $e->getMessage(), "\n";
}
var_dump(Table::exists('c'));
var_dump(Table::remember('c', fn() => 'stored now'));
?>
--EXPECT--
DomainException: compute failed
bool(false)
int(0)
string(10) "second try"
Exception: Serialization of 'Closure' is not allowed
bool(false)
string(10) "stored now"
