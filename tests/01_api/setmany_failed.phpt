--TEST--
Shm\Table: setMany: the 4th argument receives the keys that were not stored (a full noeviction table)
--INI--
table.memory=2M
table.eviction_policy=noeviction
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

// all stored: an empty list, whatever the variable held before
$failed = 'previous';
try {
    Table::setMany(['a' => 1], null, null, $failed);
} catch (TypeError $e) {
    echo $e->getMessage(), "\n";
}
$failed = ['stale'];
var_dump(Table::setMany(['a' => 1, 'b' => 2], null, null, $failed), $failed);
var_dump(Table::setMany([], failed: $failed), $failed);

// a full table: 40 values of 100 KB into 2 MB; some fit, the rest are named in $failed
$values = [];
for ($i = 0; $i < 40; $i++) {
    $values[$i % 2 ? "k$i" : $i] = str_repeat(chr(65 + $i % 26), 100000);
}
$ok = Table::setMany($values, null, 'full', $failed);
var_dump($ok, is_array($failed), count($failed) > 0, count($failed) < 40, array_is_list($failed));
$present = $absent = [];
foreach (array_keys($values) as $k) {
    if (Table::get((string) $k, 'full') === $values[$k]) {
        $present[] = $k;
    } elseif (!Table::exists((string) $k, 'full')) {
        $absent[] = $k;
    } else {
        echo "$k: stored with a wrong value\n";
    }
}
var_dump($failed === $absent, count($present) + count($absent));
// ($failed === $absent is strict: int keys are reported as ints, in the order given)
// without the 4th argument the answer is the same bool
var_dump(Table::setMany(['x1' => str_repeat('x', 1000000)], null, 'full'));
?>
--EXPECT--
Shm\Table::setMany(): Argument #4 ($failed) must be of type ?array, string given
bool(true)
array(0) {
}
bool(true)
array(0) {
}
bool(false)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
int(40)
bool(false)
