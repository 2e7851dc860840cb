--TEST--
Shm\Table: zero-copy: arrays a request holds, spread over the table, do not make a write fail for want of one free hole (issue 19, finding 3)
--ENV--
TABLE_TEST_HOOKS=1
--INI--
table.zero_copy=1
table.zero_copy_budget=1M
table.memory=8M
table.eviction_policy=noeviction
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

// Fill nine tenths of the table with arrays of about 2 KB (images, laid out one after the other).
$n = 0;
while (Table::stats()['memory_free'] > Table::stats()['memory_size'] / 10) {
    Table::set("a$n", ['id' => $n, 'blob' => str_repeat('x', 2000)]);
    $n++;
}
// This request reads seven of them, spread over the table, zero-copy: they are held until it ends.
$kept = [];
for ($i = 0; $i < 7; $i++) {
    $k = 'a' . (intdiv($n, 14) + intdiv($n, 7) * $i);
    $kept[$k] = Table::get($k);
}
$s = Table::stats();
echo "held: {$s['held_entries']}\n";
Table::clearAll();
Table::set('nudge', 1);   // a write reclaims what clearAll() retired
$s = Table::stats();
$free = $s['memory_free'];
// What made the writes below fail before: the held arrays cut the free memory into holes.
echo "almost all free: ", $free > 7 * 1024 * 1024 ? 'yes' : "NO ($free)", "\n";
echo "no hole of 2 MB: ", $s['memory_largest_free'] < 2 * 1024 * 1024 ? 'yes' : "NO ({$s['memory_largest_free']})", "\n";

$oom = $s['oom'];
$str = random_bytes(2 * 1024 * 1024);
var_dump(Table::set('string-2m', $str));
var_dump(Table::get('string-2m') === $str);
// An array that large cannot be an image (which must be contiguous): it is stored in its compact form.
$arr = [];
for ($i = 0; $i < 2000; $i++) {
    $arr["k$i"] = str_repeat(chr(65 + $i % 26), 1000);
}
var_dump(Table::set('array-2m', $arr));
var_dump(Table::get('array-2m') === $arr);
var_dump(Table::cas('array-2m', $arr, $arr + ['more' => true]));
var_dump(Table::get('array-2m')['more'] ?? null);
Table::delete('string-2m');
Table::delete('array-2m');
Table::set('nudge', 2);
// Every other way of writing one does the same.
echo "add, setMany, remember: ", json_encode([
    Table::add('added', $arr),
    Table::setMany(['many' => $arr]),
    Table::remember('remembered', fn () => $arr) === $arr,
    Table::get('added') === $arr && Table::get('many') === $arr && Table::get('remembered') === $arr,
]), "\n";
Table::deleteMany(['added', 'many', 'remembered']);
Table::set('nudge', 3);

// The rule: with holds present, a write of half the free memory succeeds.
$half = intdiv(Table::stats()['memory_free'], 2);
$str = random_bytes($half);
var_dump(Table::set('half', $str));
var_dump(Table::get('half') === $str);
echo "oom counted: ", Table::stats()['oom'] - $oom, "\n";
// The held arrays are still what they were.
$ok = 0;
foreach ($kept as $k => $v) {
    $ok += (int) ($v['blob'] === str_repeat('x', 2000));
}
echo "held arrays intact: $ok\n";
echo "tbl_check: ", \Shm\__table_test_check() === '' ? 'clean' : \Shm\__table_test_check(), "\n";
?>
--EXPECT--
held: 7
almost all free: yes
no hole of 2 MB: yes
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
add, setMany, remember: [true,true,true,true]
bool(true)
bool(true)
oom counted: 0
held arrays intact: 7
tbl_check: clean
