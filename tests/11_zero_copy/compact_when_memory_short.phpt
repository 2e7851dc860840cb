--TEST--
Shm\Table: zero-copy: while memory is short, an array whose image would be over twice its compact encoding is stored compactly; with room to spare it gets its image again
--INI--
table.zero_copy=1
table.memory=8M
table.eviction_policy=noeviction
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

// Records shaped like the benchmark's meteorites: ten short strings and a nested point.
function record(int $i): array
{
    return [
        'name' => "Meteorite $i", 'id' => (string) $i, 'nametype' => 'Valid', 'recclass' => 'L' . ($i % 7),
        'mass' => (string) ($i * 37 % 9000), 'fall' => $i % 2 ? 'Fell' : 'Found',
        'year' => sprintf('%04d-01-01T00:00:00.000', 1800 + $i % 200),
        'reclat' => sprintf('%.6f', $i / 7), 'reclong' => sprintf('%.6f', -$i / 3),
        'geolocation' => ['type' => 'Point', 'coordinates' => [-$i / 3, $i / 7]],
    ];
}

// Stores 100 records under $prefix; returns [bytes per record, zero-copy reads of them, all read back equal].
function store_records(string $prefix): array
{
    $before = Table::memory();
    for ($i = 0; $i < 100; $i++) {
        if (!Table::set("$prefix:$i", record($i))) {
            echo "set $prefix:$i failed\n";
        }
    }
    $bytes = (Table::memory() - $before) / 100;
    $z = Table::stats()['zero_copy_reads'];
    $equal = true;
    for ($i = 0; $i < 100; $i++) {
        $equal = $equal && Table::get("$prefix:$i") === record($i);
    }
    return [$bytes, Table::stats()['zero_copy_reads'] - $z, $equal];
}

function free_share(): float
{
    $s = Table::stats();
    return $s['memory_free'] / ($s['memory_free'] + $s['memory_used']);
}

echo "room to spare:\n";
[$image, $zc, $equal] = store_records('roomy');
var_dump($zc, $equal);

echo "full, then a twentieth freed:\n";
$filler = str_repeat('f', 1000);
for ($n = 0; Table::set("fill:$n", $filler); $n++);
for ($i = 0; $i < $n / 20; $i++) {
    Table::delete("fill:$i");
}
Table::set('reclaim', 1);   // a write reclaims what the deletes retired
var_dump(free_share() < 1 / 8);
[$compact, $zc, $equal] = store_records('short');
var_dump($zc, $equal);
var_dump($image > 2 * $compact);   // the images were over twice the compact encoding
// A list of integers costs 16 bytes an element as an image, within twice its compact encoding: it keeps
// its image even now.
$ints = range(1_000_000, 1_000_499);
Table::set('ints', $ints);
$z = Table::stats()['zero_copy_reads'];
var_dump(Table::get('ints') === $ints, Table::stats()['zero_copy_reads'] - $z);

echo "room again:\n";
for ($i = 0; $i < $n; $i++) {
    Table::delete("fill:$i");
}
Table::set('reclaim', 2);
var_dump(free_share() > 1 / 8);
[$again, $zc, $equal] = store_records('again');
var_dump($zc, $equal, $again == $image);
?>
--EXPECT--
room to spare:
int(100)
bool(true)
full, then a twentieth freed:
bool(true)
int(0)
bool(true)
bool(true)
bool(true)
int(1)
room again:
bool(true)
int(100)
bool(true)
bool(true)
