--TEST--
Shm\Table: memory: with noeviction a full table refuses new entries and keeps every earlier one intact
--INI--
table.memory=2M
table.eviction_policy=noeviction
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

function value(int $i): string { return str_repeat(chr(65 + $i % 26), 1000) . ":$i"; }

$n = 0;
while ($n < 100000 && Table::set("k$n", value($n))) {
    $n++;
}
echo $n > 500 && $n < 100000 ? "filled\n" : "filled $n entries\n";
var_dump(Table::exists("k$n"));
$bad = 0;
for ($i = 0; $i < $n; $i++) {
    if (Table::get("k$i") !== value($i)) {
        $bad++;
    }
}
$s = Table::stats();
var_dump($bad, Table::count() === $n, $s['oom'] > 0, $s['evictions']);
// more attempts keep failing and keep being counted, without touching anything
var_dump(Table::set('another', value(1)));
try {
    Table::add('another', value(1));   // add()'s false would mean "exists": no room throws instead
} catch (Shm\TableException $e) {
    echo get_class($e), "\n";
}
var_dump(Table::stats()['oom'] > $s['oom']);
var_dump(Table::get('k0') === value(0));
// delete some and writes work again
for ($i = 0; $i < 50; $i++) {
    Table::delete("k$i");
}
var_dump(Table::set("k$n", value($n)), Table::get("k$n") === value($n));
var_dump(Table::set('another', value(1)));
var_dump(Table::get('k' . ($n - 1)) === value($n - 1));
?>
--EXPECT--
filled
bool(false)
int(0)
bool(true)
bool(true)
int(0)
bool(false)
Shm\TableException
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
