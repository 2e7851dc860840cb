--TEST--
Shm\Table: zero-copy: an lru cache written far past its size stays short of memory, so records written into it are stored compactly and it holds as many as in the copying mode
--INI--
table.zero_copy=1
table.memory=4M
table.eviction_policy=lru
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

function record(int $i): array
{
    return [
        'name' => "Meteorite $i", 'id' => (string) $i, 'nametype' => 'Valid', 'recclass' => 'L' . ($i % 7),
        'mass' => (string) ($i * 37 % 9000), 'fall' => $i % 2 ? 'Fell' : 'Found',
        'year' => sprintf('%04d-01-01T00:00:00.000', 1800 + $i % 200),
        'geolocation' => ['type' => 'Point', 'coordinates' => [-$i / 3, $i / 7]],
    ];
}

// Written while the table is empty: an image, read without a copy.
Table::set('first', record(0));
$image = Table::getWithMeta('first')[1]['length'];
$z = Table::stats()['zero_copy_reads'];
var_dump(Table::get('first') === record(0), Table::stats()['zero_copy_reads'] - $z);

// Write records worth about eight times the table (as images); eviction keeps it full.
$failed = 0;
for ($i = 1; $i <= 8 * (4 << 20) / $image; $i++) {
    $failed += (int) !Table::set("r$i", record($i));
}
$s = Table::stats();
var_dump($failed, $s['evictions'] > 0, $s['memory_free'] < ($s['memory_free'] + $s['memory_used']) / 8);

// The last records written are compact (under half the image) and copied on read, and intact. (An lru
// cache that nobody reads may evict some of them: they are misses, never wrong values.)
$last = $i - 1;
$z = Table::stats()['zero_copy_reads'];
$intact = true;
$found = 0;
$largest = 0;
for ($j = $last - 99; $j <= $last; $j++) {
    if (($v = Table::get("r$j")) !== null) {
        $found++;
        $intact = $intact && $v === record($j);
        $largest = max($largest, Table::getWithMeta("r$j")[1]['length'] ?? 0);
    }
}
echo "found: ", $found > 50 ? 'most' : $found, "\n";
var_dump($intact, Table::stats()['zero_copy_reads'] - $z);
var_dump($largest > 0 && $largest * 2 < $image);
// So the full table holds far more records than it could as images.
var_dump(Table::count() * $image > 2 * (4 << 20));
?>
--EXPECT--
bool(true)
int(1)
int(0)
bool(true)
bool(true)
found: most
bool(true)
int(0)
bool(true)
bool(true)
