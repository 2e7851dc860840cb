--TEST--
Shm\Table: types: __wakeup, __unserialize and __serialize may call the table themselves
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

class Reentrant {
    public $data = 'payload';
    public function __serialize(): array {
        Table::increment('serialize calls');
        Table::set('written by __serialize', true);
        return ['data' => $this->data];
    }
    public function __unserialize(array $d): void {
        Table::increment('unserialize calls');
        $this->data = $d['data'] . ' + ' . Table::get('extra');
    }
}
class Waker {
    public $v = 1;
    public function __wakeup() {
        Table::set('woken', Table::get('extra') . ' woken');
    }
}
Table::set('extra', 'extra');
var_dump(Table::set('r', new Reentrant));
var_dump(Table::get('r')->data);
var_dump(Table::get('serialize calls'), Table::get('unserialize calls'), Table::get('written by __serialize'));
Table::set('w', new Waker);
var_dump(Table::get('w')->v, Table::get('woken'));
var_dump(Table::getMany(['r', 'w'])['r']->data);
?>
--EXPECT--
bool(true)
string(15) "payload + extra"
int(1)
int(1)
bool(true)
int(1)
string(11) "extra woken"
string(15) "payload + extra"
