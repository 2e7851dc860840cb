--TEST--
Shm\Table: serializer: an exception thrown by __unserialize/__wakeup propagates out of get() and the entry stays
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

class FailsOnLoad {
    public static bool $fail = true;
    public $v = 'value';
    public function __serialize(): array { return ['v' => $this->v]; }
    public function __unserialize(array $d): void {
        if (self::$fail) {
            throw new UnexpectedValueException('cannot load');
        }
        $this->v = $d['v'];
    }
}
Table::set('k', new FailsOnLoad);
Table::set('other', 'fine');
foreach ([fn() => Table::get('k'), fn() => Table::getWithMeta('k'), fn() => Table::getMany(['other', 'k']),
    fn() => Table::remember('k', fn() => 'recomputed')] as $call) {
    try {
        var_dump($call());
    } catch (UnexpectedValueException $e) {
        echo get_class($e), ': ', $e->getMessage(), "\n";
    }
}
var_dump(Table::exists('k'), Table::get('other'));
FailsOnLoad::$fail = false;
var_dump(Table::get('k')->v);
?>
--EXPECT--
UnexpectedValueException: cannot load
UnexpectedValueException: cannot load
UnexpectedValueException: cannot load
UnexpectedValueException: cannot load
bool(true)
string(4) "fine"
string(5) "value"
