--TEST--
Shm\Table: multiprocess: namespaces created by one process are shared by all
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; table_skip_unless_pcntl(); ?>
--FILE--
<?php
use Shm\Table;
require __DIR__ . '/../helpers.inc';

Table::set('k', 'parent', null, 'from-parent');
$r = table_fork(4, function (int $w) {
    // all workers race to create the same namespaces
    for ($n = 0; $n < 20; $n++) {
        Table::increment('hits', 1, null, "shared$n");
    }
    Table::set('k', "worker $w", null, "own$w");
    return Table::get('k', 'from-parent');
});
var_dump(array_unique($r));
$ns = Table::namespaces();
sort($ns);
echo implode(',', $ns), "\n";
$bad = 0;
for ($n = 0; $n < 20; $n++) {
    $bad += Table::get('hits', "shared$n") !== 4 || Table::count("shared$n") !== 1;
}
var_dump($bad, Table::get('k', 'own3'));
?>
--EXPECT--
array(1) {
  [0]=>
  string(6) "parent"
}
from-parent,own0,own1,own2,own3,shared0,shared1,shared10,shared11,shared12,shared13,shared14,shared15,shared16,shared17,shared18,shared19,shared2,shared3,shared4,shared5,shared6,shared7,shared8,shared9
int(0)
string(8) "worker 3"
