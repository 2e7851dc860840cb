--TEST--
Shm\Table: zero-copy: one script writing values of 10 B to 200 KB into a small table while it holds what it reads has no write refused (issue 19, finding 3)
--ENV--
TABLE_TEST_HOOKS=1
--INI--
table.zero_copy=1
table.memory=2M
table.eviction_policy=lru
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

// The CLI's request never ends, so every array it reads zero-copy stays held (up to the budget): held
// arrays spread over the table as it turns over. Copy mode refuses none of these writes; neither may this.
mt_srand(19);
$refused = 0;
$held = 0;
for ($i = 0; $i < 20000; $i++) {
    $size = (int) (10 * 20480 ** (mt_rand(0, 999) / 1000));   // 10 B .. 200 KB, spread on a log scale
    $key = 'm' . mt_rand(0, 499);
    if ($i % 2) {
        $value = str_repeat('s', $size);
    } else {
        $value = array_fill(0, max(1, intdiv($size, 40)), str_repeat('a', 24));
    }
    $refused += (int) !Table::set($key, $value);
    $got = Table::get('m' . mt_rand(0, 499));
    if (is_array($got)) {
        $held++;
    }
}
$s = Table::stats();
echo "arrays read: ", $held > 1000 ? 'many' : $held, "\n";
echo "held now: ", $s['held_entries'] > 0 ? 'some' : 'none', "\n";
echo "refused: $refused\n";
echo "oom: {$s['oom']}\n";
echo "tbl_check: ", \Shm\__table_test_check() === '' ? 'clean' : \Shm\__table_test_check(), "\n";
?>
--EXPECT--
arrays read: many
held now: some
refused: 0
oom: 0
tbl_check: clean
