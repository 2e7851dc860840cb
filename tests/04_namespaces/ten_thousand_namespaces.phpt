--TEST--
Shm\Table: namespaces: a namespace per tenant, 10,000 tenants on a 64M table: created, counted, listed, cleared
--INI--
table.memory=64M
table.eviction_policy=noeviction
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

// Each tenant gets its own namespace with a few entries (the limit was table.memory / 64 KiB: 1,024 here).
$n = 10000;
$bad = 0;
for ($i = 0; $i < $n; $i++) {
    $ok = Table::setMany(['user' => "u$i", 'plan' => $i % 3, 'quota' => [$i, $i * 2]], null, "tenant$i");
    $bad += $ok ? 0 : 1;
}
echo "not stored: $bad\n";

// counted, each on its own
$wrong = 0;
for ($i = 0; $i < $n; $i++) {
    if (Table::count("tenant$i") !== 3 || Table::get('user', "tenant$i") !== "u$i" || Table::memory("tenant$i") <= 0) {
        $wrong++;
    }
}
echo "wrong counts or values: $wrong\n";

// listed: every tenant, once
$names = Table::namespaces();
$expected = [];
for ($i = 0; $i < $n; $i++) {
    $expected[] = "tenant$i";
}
sort($names);
sort($expected);
var_dump(count($names), $names === $expected, Table::count() === 0, count(Table::stats()['namespaces']) >= $n);

// cleared: one tenant, then all of them
var_dump(Table::clear('tenant42'), Table::count('tenant42'), Table::count('tenant43'), count(Table::namespaces()));
var_dump(Table::clearAll(), Table::namespaces(), Table::count('tenant43'));

// and the ids come back: 10,000 tenants again
for ($i = 0; $i < $n; $i++) {
    Table::set('k', $i, null, "again$i");
}
var_dump(count(Table::namespaces()), Table::get('k', 'again9999'));
?>
--EXPECT--
not stored: 0
wrong counts or values: 0
int(10000)
bool(true)
bool(true)
bool(true)
bool(true)
int(0)
int(3)
int(9999)
int(29997)
array(0) {
}
int(0)
int(10000)
int(9999)
