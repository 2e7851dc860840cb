--TEST--
Shm\Table: memory: with gdsf, small keys read often survive a flood of large keys never read, and the ones moved out of an evicted run keep their value and TTL
--INI--
table.memory=4M
table.eviction_policy=gdsf
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

function hot(int $i): array { return ['id' => $i, 'name' => "user $i", 'roles' => ['reader', 'writer']]; }

for ($i = 0; $i < 100; $i++) {
    Table::set("hot$i", hot($i), 3600);
}
$free = Table::stats()['memory_size'];
$written = $failed = $lost = $wrong = 0;
for ($n = 0; $written < 4 * $free; $n++) {
    $big = str_repeat(chr(65 + $n % 26), 8000 + ($n % 9) * 1000);
    $failed += !Table::set("cold$n", $big);
    $written += strlen($big);
    // every hot key is read once every ten writes
    for ($i = $n % 10; $i < 100; $i += 10) {
        $v = Table::get("hot$i");
        $lost += $v === null;
        $wrong += $v !== null && $v !== hot($i);
    }
}
$s = Table::stats();
$ttlOk = 0;
for ($i = 0; $i < 100; $i++) {
    $ttl = Table::ttl("hot$i");
    $ttlOk += $ttl > 3000 && $ttl <= 3600;
}
var_dump($failed, $lost, $wrong, $ttlOk);
var_dump($s['evictions'] > 1000, $s['eviction_moves'] > 0);
// of the large keys, only the newest are left: they went in order of worth, not all at once
$coldLeft = 0;
for ($i = 0; $i < $n; $i++) {
    $coldLeft += Table::exists("cold$i");
}
var_dump($coldLeft > 50 && $coldLeft < $n / 4);
?>
--EXPECT--
int(0)
int(0)
int(0)
int(100)
bool(true)
bool(true)
bool(true)
