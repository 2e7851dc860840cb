--TEST--
Shm\Table: multiprocess: a cas() retry loop in 4 workers never loses an update
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; table_skip_unless_pcntl(); ?>
--FILE--
<?php
use Shm\Table;
require __DIR__ . '/../helpers.inc';

Table::set('n', 0);
Table::set('list', []);
$results = table_fork(4, function (int $w) {
    $retries = 0;
    for ($done = 0; $done < 500; ) {
        $v = Table::get('n');
        if (Table::cas('n', $v, $v + 1)) {
            $done++;
        } else {
            $retries++;
        }
    }
    // arrays compare with ===, as scalars do
    for ($done = 0; $done < 50; ) {
        $l = Table::get('list');
        $new = $l;
        $new[] = "w$w";
        if (Table::cas('list', $l, $new)) {
            $done++;
        }
    }
    return $retries;
});
var_dump(Table::get('n'));
$counts = array_count_values(Table::get('list'));
ksort($counts);
var_dump($counts);
?>
--EXPECT--
int(2000)
array(4) {
  ["w0"]=>
  int(50)
  ["w1"]=>
  int(50)
  ["w2"]=>
  int(50)
  ["w3"]=>
  int(50)
}
