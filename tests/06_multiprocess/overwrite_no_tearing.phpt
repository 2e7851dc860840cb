--TEST--
Shm\Table: multiprocess: readers never see a torn value while 4 workers overwrite the same keys
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; table_skip_unless_pcntl(); table_skip_if_valgrind('a stress test, minutes long'); ?>
--FILE--
<?php
use Shm\Table;
require __DIR__ . '/../helpers.inc';

$results = table_fork(4, function (int $w) {
    mt_srand($w);
    $bad = 0;
    for ($i = 0; $i < 3000; $i++) {
        $k = 'hot' . mt_rand(0, 4);
        // sizes cross the inline / small / large boundaries
        $len = [1, 7, 8, 100, 4000, 70000][mt_rand(0, 5)];
        Table::set($k, table_checked_value($w, $i, $len));
        $v = Table::get('hot' . mt_rand(0, 4));
        if ($v !== null && !table_checked_ok($v)) {
            $bad++;
        }
        $meta = Table::getWithMeta('hot' . mt_rand(0, 4));
        if ($meta !== false && !table_checked_ok($meta[0])) {
            $bad++;
        }
    }
    return $bad;
});
var_dump($results);
$ok = 0;
for ($k = 0; $k < 5; $k++) {
    $ok += table_checked_ok(Table::get("hot$k"));
}
var_dump($ok, Table::count());
?>
--EXPECT--
array(4) {
  [0]=>
  int(0)
  [1]=>
  int(0)
  [2]=>
  int(0)
  [3]=>
  int(0)
}
int(5)
int(5)
