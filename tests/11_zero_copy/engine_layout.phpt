--TEST--
Shm\Table: zero-copy: images obey the running engine's rules for arrays and strings (hashes, packed flags, interned strings)
--INI--
table.zero_copy=1
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
/*
 * A zero-copy image is an array that the extension lays out by hand the way the running PHP lays out its
 * own (binding/php_table_compat.h lists the assumptions, and checks what it can at compile time). What
 * the compiler cannot check is meaning: a string hash the engine would compute differently, a packed
 * array the engine would not treat as a list, a string flag that makes the engine skip a comparison.
 * Each of those breaks a lookup or a comparison here, on whichever PHP runs the suite.
 */
use Shm\Table;

$keys = ['name', 'id', 'recclass', '', '0x1A', '01', '1.5', "\0bin", 'ünïcödé', str_repeat('long', 40)];
$row = [];
foreach ($keys as $i => $k) {
    $row[$k] = "value of $k";
}
$row[7] = 'int key';
$row[-3] = 'negative int key';
Table::set('row', $row);
Table::set('list', ['alpha', 'beta', 'gamma', 'delta']);
Table::set('nested', ['rows' => [$row, $row], 'tags' => ['x' => 'alpha', 'y' => 'beta']]);

$img = Table::get('row');
$list = Table::get('list');
$nested = Table::get('nested');
$s = Table::stats();
echo 'zero-copy reads: ', $s['zero_copy_reads'] >= 3 ? 'yes' : "no ({$s['zero_copy_reads']})", "\n";

// 1. String keys are found by the engine's own hash, from keys the engine built...
$found = 0;
foreach ($keys as $k) {
    $found += (isset($img[$k]) && $img[$k] === "value of $k" && array_key_exists($k, $img)) ? 1 : 0;
}
echo "lookups by engine-built keys: $found of ", count($keys), "\n";
// ...and the image's own keys are found in arrays the engine built (their precomputed hash is right).
$fresh = array_flip($keys);
$found = 0;
foreach ($img as $k => $v) {
    if (is_string($k)) {
        $found += isset($fresh[$k]) ? 1 : 0;
    }
}
echo "image keys in an engine-built array: $found\n";
// The image's string values as keys of a new array, and back.
$flipped = array_flip(array_filter($img, 'is_string'));
echo 'values as keys: ', isset($flipped['value of name'], $flipped['int key']) ? 'found' : 'MISSING', "\n";
var_dump($img[7], $img[-3], $img['7'] ?? null);

// 2. Strings compare equal to engine strings of the same bytes, whatever their flags.
$literal = 'value of name';
var_dump($img['name'] === $literal, $img['name'] == $literal, strcmp($img['name'], $literal));
var_dump(match ($list[1]) { 'beta' => 'matched', default => 'NOT MATCHED' });
var_dump(in_array('gamma', $list, true), array_search('delta', $list, true));
var_dump(str_contains($nested['tags']['x'], 'lph'), $nested['tags']['y'] . '!' , strlen($img[str_repeat('long', 40)]));

// 3. A list is a list; a hash is not.
var_dump(array_is_list($list), array_is_list($img), array_is_list($nested['rows']));
var_dump(count($img), count($list), count($nested['rows'][1]));

// 4. Writes separate: the image is copied, and the table keeps the original.
$copy = $img;
$copy['name'] = 'changed';
$copy[] = 'appended';
$list[] = 'epsilon';
unset($nested['rows'][0]['id']);
var_dump(Table::get('row')['name'], count(Table::get('list')), isset(Table::get('nested')['rows'][0]['id']));
var_dump($copy['name'], $list[4], array_key_last($copy));

// 5. The image equals the engine-built original in every way PHP compares or prints arrays.
var_dump(Table::get('row') === $row, serialize(Table::get('row')) === serialize($row),
    json_encode(Table::get('nested')) === json_encode(['rows' => [$row, $row], 'tags' => ['x' => 'alpha', 'y' => 'beta']]),
    var_export(Table::get('list'), true) === var_export(['alpha', 'beta', 'gamma', 'delta'], true));
?>
--EXPECT--
zero-copy reads: yes
lookups by engine-built keys: 10 of 10
image keys in an engine-built array: 10
values as keys: found
string(7) "int key"
string(16) "negative int key"
string(7) "int key"
bool(true)
bool(true)
int(0)
string(7) "matched"
bool(true)
int(3)
bool(true)
string(5) "beta!"
int(169)
bool(true)
bool(false)
bool(true)
int(12)
int(4)
int(12)
string(13) "value of name"
int(4)
bool(true)
string(7) "changed"
string(7) "epsilon"
int(8)
bool(true)
bool(true)
bool(true)
bool(true)
