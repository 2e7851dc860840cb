--TEST--
Shm\Table: errors: an exception thrown by __sleep propagates and nothing is stored or changed
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

class Sleepless {
    public $a = 1;
    public function __sleep() { throw new RuntimeException('no sleep'); }
}
Table::set('k', ['old']);
foreach ([new Sleepless, ['x' => new Sleepless]] as $v) {
    try {
        var_dump(Table::set('k', $v));
    } catch (RuntimeException $e) {
        echo get_class($e), ': ', $e->getMessage(), "\n";
    }
}
try {
    Table::add('new', new Sleepless);
} catch (RuntimeException $e) {
    echo get_class($e), ': ', $e->getMessage(), "\n";
}
var_dump(Table::get('k'), Table::exists('new'), Table::count());
// the table is fully usable afterwards
var_dump(Table::set('k', 'after'), Table::get('k'));
?>
--EXPECT--
RuntimeException: no sleep
RuntimeException: no sleep
RuntimeException: no sleep
array(1) {
  [0]=>
  string(3) "old"
}
bool(false)
int(1)
bool(true)
string(5) "after"
