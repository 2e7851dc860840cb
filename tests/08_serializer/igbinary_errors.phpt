--TEST--
Shm\Table: serializer: with igbinary, unserializable values throw and leave the old value
--INI--
table.serializer=igbinary
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; table_skip_unless_igbinary(); ?>
--FILE--
<?php
use Shm\Table;

class Throws {
    public function __serialize(): array { throw new LogicException('no igbinary for me'); }
}
class SleepThrows {
    public function __sleep() { throw new LogicException('no sleep'); }
}
Table::set('k', 'old');
$fp = fopen('php://memory', 'r');
$calls = [
    fn() => Table::set('k', fn() => 1),
    fn() => Table::set('k', ['o' => new Throws]),
    fn() => Table::set('k', new SleepThrows),
    fn() => Table::set('k', [$fp]),
    fn() => Table::set('k', table_obj($fp)),
];
function table_obj($fp) { $o = new stdClass; $o->fp = $fp; return $o; }
foreach ($calls as $call) {
    try {
        var_dump($call());
    } catch (Throwable $e) {
        echo get_class($e), ': ', $e->getMessage(), "\n";
    }
}
var_dump(Table::get('k'), Table::count());
?>
--EXPECT--
Exception: Serialization of 'Closure' is not allowed
LogicException: no igbinary for me
LogicException: no sleep
TypeError: Shm\Table::set(): Argument #2 ($value) cannot contain a resource
TypeError: Shm\Table::set(): Argument #2 ($value) cannot contain a resource
string(3) "old"
int(1)
