--TEST--
Shm\Table: native arrays: truncated and corrupted encodings are rejected or decode to some array, never read out of bounds; templates stay right
--ENV--
TABLE_TEST_HOOKS=1
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\TableException;

$record = ['name' => 'Aachen', 'id' => '1', 'nametype' => 'Valid', 'mass' => 21.5, 'n' => -200, 'b' => true,
           'year' => '1880-01-01T00:00:00.000', 'z' => null, 7 => 'seven',
           'geolocation' => ['type' => 'Point', 'coordinates' => [6.08333, 50.775]],
           'long' => str_repeat('v', 260), 'e' => []];
$bytes = Shm\__table_test_native_encode($record);
$decode = function (string $b) {
    try {
        return Shm\__table_test_native_decode($b);
    } catch (TableException $e) {
        return $e->getMessage();
    }
};
// Twice: once key by key, once from the template the first made.
var_dump($decode($bytes) === $record, $decode($bytes) === $record);

// Every truncation is rejected, with a template for the shape or without.
$accepted = 0;
for ($len = 0; $len < strlen($bytes); $len++) {
    if (is_array($decode(substr($bytes, 0, $len)))) {
        $accepted++;
    }
}
echo "truncations accepted: $accepted\n";
// So are trailing bytes.
var_dump(is_string($decode($bytes . "\0")));

// Every byte changed in several ways: a change inside a string or a number still makes a valid
// encoding (of another value); changes to the structure are rejected. None may crash or read past the
// end (valgrind and ASan watch this test).
$rejected = 0;
$total = 0;
for ($i = 0; $i < strlen($bytes); $i++) {
    foreach ([0x01, 0x10, 0x80, 0xff] as $mask) {
        $bad = $bytes;
        $bad[$i] = chr(ord($bad[$i]) ^ $mask);
        $r = $decode($bad);
        $total++;
        if (!is_array($r) && !is_string($r)) {
            echo "neither an array nor an exception at byte $i\n";
        }
        if (is_string($r)) {
            if (!str_contains($r, 'the stored value is corrupt')) {
                echo "unexpected: $r\n";
            }
            $rejected++;
        }
    }
}
echo $rejected > 0 && $rejected < $total ? "some rejected\n" : "$rejected of $total rejected\n";
// After all that, the right bytes still give the right array.
var_dump($decode($bytes) === $record);
?>
--EXPECT--
bool(true)
bool(true)
truncations accepted: 0
bool(true)
some rejected
bool(true)
