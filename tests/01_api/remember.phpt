--TEST--
Shm\Table: remember: computes on a miss, stores the result and returns the cached value afterwards
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

$calls = 0;
$compute = function () use (&$calls) {
    $calls++;
    return ['computed' => $calls];
};
var_dump(Table::remember('k', $compute));
var_dump(Table::remember('k', $compute));
var_dump($calls, Table::get('k'));

// another namespace is another miss
var_dump(Table::remember('k', $compute, null, 'ns'), $calls);

// an existing value set by set() is returned without computing
Table::set('pre', 'stored');
var_dump(Table::remember('pre', $compute), $calls);

// with an expiry
var_dump(Table::remember('e', fn() => 'v', 100));
$ttl = Table::ttl('e');
var_dump($ttl >= 1 && $ttl <= 100);
var_dump(Table::ttl('k'));

// every callable form works
function compute_fn() { return 'from function'; }
class Computer {
    public static function make() { return 'from static method'; }
    public function __invoke() { return 'from invokable'; }
}
var_dump(Table::remember('f1', 'compute_fn'));
var_dump(Table::remember('f2', ['Computer', 'make']));
var_dump(Table::remember('f3', 'Computer::make'));
var_dump(Table::remember('f4', new Computer));
var_dump(Table::remember('f5', compute_fn(...)));
var_dump(Table::remember(key: 'f6', compute: fn() => 6, expire: 50, namespace: 'named'), Table::get('f6', 'named'));
?>
--EXPECT--
array(1) {
  ["computed"]=>
  int(1)
}
array(1) {
  ["computed"]=>
  int(1)
}
int(1)
array(1) {
  ["computed"]=>
  int(1)
}
array(1) {
  ["computed"]=>
  int(2)
}
int(2)
string(6) "stored"
int(2)
string(1) "v"
bool(true)
bool(false)
string(13) "from function"
string(18) "from static method"
string(18) "from static method"
string(14) "from invokable"
string(13) "from function"
int(6)
int(6)
