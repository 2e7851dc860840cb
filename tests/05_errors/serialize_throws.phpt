--TEST--
Shm\Table: errors: an exception thrown by __serialize propagates and nothing is stored or changed
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

class Refuses {
    public function __serialize(): array { throw new LogicException('refused by __serialize'); }
    public function __unserialize(array $d): void {}
}
class BadReturn {
    public function __serialize() { return 'not an array'; }
}
Table::set('k', 'old');
Table::set('counter', 5);
$calls = [
    fn() => Table::set('k', new Refuses),
    fn() => Table::set('k', [1, [2, new Refuses]]),
    fn() => Table::add('new', new Refuses),
    fn() => Table::setMany(['k' => 'fine', 'new' => new Refuses]),
    fn() => Table::cas('k', 'old', new Refuses),
    fn() => Table::remember('new', fn() => new Refuses),
    fn() => Table::set('k', new BadReturn),
];
foreach ($calls as $call) {
    try {
        var_dump($call());
    } catch (Throwable $e) {
        echo get_class($e), ': ', $e->getMessage(), "\n";
    }
}
var_dump(Table::get('k'), Table::exists('new'), Table::count(), Table::increment('counter'));
?>
--EXPECT--
LogicException: refused by __serialize
LogicException: refused by __serialize
LogicException: refused by __serialize
LogicException: refused by __serialize
LogicException: refused by __serialize
LogicException: refused by __serialize
TypeError: BadReturn::__serialize() must return an array
string(3) "old"
bool(false)
int(2)
int(6)
