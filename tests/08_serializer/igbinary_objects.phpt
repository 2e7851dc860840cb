--TEST--
Shm\Table: serializer: igbinary stores objects, enums, shared instances and references
--INI--
table.serializer=igbinary
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; table_skip_unless_igbinary(); ?>
--FILE--
<?php
use Shm\Table;

enum Color: string { case Red = 'r'; case Blue = 'b'; }
class Custom {
    public $woken = false;
    public function __construct(public array $data = []) {}
    public function __serialize(): array { return ['d' => $this->data]; }
    public function __unserialize(array $a): void { $this->data = $a['d']; $this->woken = true; }
}
class Sleepy {
    public $keep = 'kept';
    public $drop = 'dropped';
    public $woken = false;
    public function __sleep() { return ['keep']; }
    public function __wakeup() { $this->woken = true; }
}
var_dump(Table::stats()['serializer']);

$o = new stdClass;
$o->a = [1, 2.5, 'x'];
$o->self = $o;
Table::set('o', $o);
$got = Table::get('o');
var_dump(get_class($got), $got->a, $got->self === $got);

Table::set('enum', ['c' => Color::Blue, 'd' => Color::Blue]);
$e = Table::get('enum');
var_dump($e['c'] === Color::Blue, $e['d'] === Color::Blue);

Table::set('custom', new Custom(['k' => 'v']));
$c = Table::get('custom');
var_dump($c->data, $c->woken);

$sleepy = new Sleepy;
$sleepy->drop = 'runtime value';
Table::set('sleepy', $sleepy);
$s = Table::get('sleepy');
var_dump($s->keep, $s->drop, $s->woken);

$a = [1];
$a[1] = &$a[0];
Table::set('ref', $a);
$b = Table::get('ref');
$b[1] = 5;
var_dump($b[0]);

$shared = new ArrayObject([1]);
Table::set('shared', [$shared, $shared]);
$sh = Table::get('shared');
var_dump($sh[0] === $sh[1], $sh[0]->getArrayCopy());
?>
--EXPECT--
string(8) "igbinary"
string(8) "stdClass"
array(3) {
  [0]=>
  int(1)
  [1]=>
  float(2.5)
  [2]=>
  string(1) "x"
}
bool(true)
bool(true)
bool(true)
array(1) {
  ["k"]=>
  string(1) "v"
}
bool(true)
string(4) "kept"
string(7) "dropped"
bool(true)
int(5)
bool(true)
array(1) {
  [0]=>
  int(1)
}
