--TEST--
Shm\Table: remember: $compute may call the table itself (no lock is held while user code runs)
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

$v = Table::remember('outer', function () {
    Table::set('side', 'effect');
    Table::increment('counter');
    $inner = Table::remember('inner', fn() => Table::get('side') . '!');
    Table::delete('nothing');
    foreach (Table::fullscan() as $ns => $key) {
    }
    return ['inner' => $inner, 'count' => Table::count()];
});
var_dump($v);
var_dump(Table::get('outer'), Table::get('inner'), Table::get('counter'));
?>
--EXPECT--
array(2) {
  ["inner"]=>
  string(7) "effect!"
  ["count"]=>
  int(3)
}
array(2) {
  ["inner"]=>
  string(7) "effect!"
  ["count"]=>
  int(3)
}
string(7) "effect!"
int(1)
