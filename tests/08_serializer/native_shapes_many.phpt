--TEST--
Shm\Table: native arrays: many more shapes than the decoder keeps templates for, interleaved, all come back exact
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

// 1,500 distinct key lists (the template cache has 256 slots): slots collide, shapes take slots over
// from others, and each get still returns its own keys and values.
$n = 1500;
$values = [];
for ($i = 0; $i < $n; $i++) {
    $v = ["k$i" => $i, 'common' => "c$i", 'nested' => ["n$i" => [$i => 'x'], 'm' => $i % 7]];
    if ($i % 3 === 0) {
        $v[$i] = 'int key';
    }
    $values[$i] = $v;
    Table::set("v:$i", $v);
}
$fails = 0;
for ($round = 0; $round < 3; $round++) {
    // A few hot shapes read again and again between the cold ones, so that slots change hands.
    for ($i = 0; $i < $n; $i++) {
        foreach ([$i, $i % 5, ($i * 7919) % $n] as $j) {
            if (Table::get("v:$j") !== $values[$j]) {
                $fails++;
            }
        }
    }
}
echo $fails === 0 ? "ok\n" : "$fails failures\n";
?>
--EXPECT--
ok
