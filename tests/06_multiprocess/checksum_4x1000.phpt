--TEST--
Shm\Table: multiprocess: 4 workers writing and reading 1,000 keys each lose nothing and tear nothing
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; table_skip_unless_pcntl(); ?>
--FILE--
<?php
use Shm\Table;
require __DIR__ . '/../helpers.inc';

mt_srand(1);
$results = table_fork(4, function (int $w) {
    mt_srand($w + 100);
    $bad = 0;
    $reads = 0;
    for ($id = 0; $id < 1000; $id++) {
        $value = table_checked_value($w, $id, mt_rand(1, 3000));
        if (!Table::set("w$w:$id", $value)) {
            $bad++;
        }
        // read back my own write at once
        if (!table_checked_ok(Table::get("w$w:$id"), $w, $id)) {
            $bad++;
        }
        // and read what the others are writing right now
        for ($j = 0; $j < 3; $j++) {
            $ow = mt_rand(0, 3);
            $oid = mt_rand(0, 999);
            $v = Table::get("w$ow:$oid");
            if ($v !== null) {
                $reads++;
                if (!table_checked_ok($v, $ow, $oid)) {
                    $bad++;
                }
            }
        }
        if ($id % 100 === 99) {
            $many = Table::getMany(["w0:$id", "w1:$id", "w2:$id", "w3:$id"]);
            foreach ($many as $k => $v) {
                [$ow, $oid] = sscanf($k, 'w%d:%d');
                if (!table_checked_ok($v, $ow, $oid)) {
                    $bad++;
                }
            }
        }
    }
    return ['bad' => $bad, 'reads' => $reads];
});
foreach ($results as $w => $r) {
    echo "worker $w: bad ", $r['bad'], "\n";
}
$missing = $corrupt = 0;
for ($w = 0; $w < 4; $w++) {
    for ($id = 0; $id < 1000; $id++) {
        $v = Table::get("w$w:$id");
        if ($v === null) {
            $missing++;
        } elseif (!table_checked_ok($v, $w, $id)) {
            $corrupt++;
        }
    }
}
var_dump($missing, $corrupt, Table::count());
?>
--EXPECT--
worker 0: bad 0
worker 1: bad 0
worker 2: bad 0
worker 3: bad 0
int(0)
int(0)
int(4000)
