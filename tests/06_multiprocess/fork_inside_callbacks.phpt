--TEST--
Shm\Table: multiprocess: forking from __wakeup, __serialize and a fullscan() loop gives children a working table
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; table_skip_unless_pcntl(); ?>
--FILE--
<?php
use Shm\Table;
require __DIR__ . '/../helpers.inc';

function child_work(string $tag): array {
    return table_fork(1, function () use ($tag) {
        Table::set("from $tag", str_repeat('c', 100000));
        return [Table::get('plain'), Table::increment('children'), strlen(Table::get("from $tag"))];
    }, false)[0];
}
class ForkOnWakeup {
    public $result;
    public function __wakeup() { $this->result = child_work('wakeup'); }
}
class ForkOnSerialize {
    public static $result;
    public function __serialize(): array { self::$result = child_work('serialize'); return []; }
    public function __unserialize(array $d): void {}
}
Table::set('plain', 'p');
Table::set('waker', new ForkOnWakeup);
var_dump(Table::get('waker')->result);
Table::set('ser', new ForkOnSerialize);
var_dump(ForkOnSerialize::$result);
foreach (Table::fullscan('plain') as $ns => $key) {
    var_dump(child_work('scan'));
}
var_dump(Table::get('children'), strlen(Table::get('from wakeup')), Table::exists('ser'));
// nothing is left pinned: replaced values are still reclaimed
$ok = true;
for ($i = 0; $i < 300; $i++) {
    $ok = $ok && Table::set('from scan', str_repeat(chr(65 + $i % 26), 300000));
}
var_dump($ok, Table::stats()['retired_bytes'] < 16 * 1024 * 1024);
?>
--EXPECT--
array(3) {
  [0]=>
  string(1) "p"
  [1]=>
  int(1)
  [2]=>
  int(100000)
}
array(3) {
  [0]=>
  string(1) "p"
  [1]=>
  int(2)
  [2]=>
  int(100000)
}
array(3) {
  [0]=>
  string(1) "p"
  [1]=>
  int(3)
  [2]=>
  int(100000)
}
int(3)
int(100000)
bool(true)
bool(true)
bool(true)
