--TEST--
Shm\Table: zero-copy: an entry overwritten and deleted while another worker holds its array stays intact until that worker's request ends, and is freed after
--INI--
table.zero_copy=1
table.memory=4M
table.eviction_policy=noeviction
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; table_skip_unless_pcntl(); ?>
--FILE--
<?php
use Shm\Table;
require __DIR__ . '/../helpers.inc';

function record(int $i): array
{
    return ['id' => $i, 'name' => "record $i", 'blob' => str_repeat(chr(65 + $i % 26), 20000), 'list' => range($i, $i + 50)];
}
Table::set('held', record(1));
Table::set('deleted', record(2));

// The parent never reads an array itself: it only writes.
$child = table_child_start(function () {
    $held = Table::get('held');
    $deleted = Table::get('deleted');
    $zc = Table::stats()['zero_copy_reads'];
    Table::set('child_ready', true);
    while (!Table::exists('parent_done')) {
        usleep(1000);
    }
    // The entries behind these arrays were replaced and deleted, and the parent churned far more than
    // the table holds through it meanwhile: the arrays must still be the originals.
    return [$zc, $held === record(1), $deleted === record(2), Table::get('held')['id'], Table::get('deleted')];
}, 0);
table_wait_until(fn() => Table::exists('child_ready'));

var_dump(Table::set('held', record(3)), Table::delete('deleted'));
$s = Table::stats();
echo "holding: ", $s['pins'], ", held entries: ", $s['held_entries'], "\n";
// Churn: writes that would reuse the held memory if it were freed early. Only the two held entries
// (about 50 KB) are kept from reuse; none may corrupt anything.
$stored = 0;
for ($i = 0; $i < 300; $i++) {
    $stored += (int) Table::set('churn' . ($i % 40), str_repeat(chr(97 + $i % 26), 30000));
}
$s = Table::stats();
echo "churn stored: $stored, retired entries held back: ", $s['held_retired_bytes'] > 40000 ? 'yes' : 'no', "\n";
Table::set('parent_done', true);
var_dump(table_child_wait($child));

// The child's request has ended: its holds are gone, and the memory it held is reused.
var_dump(Table::stats()['pins'], Table::stats()['held_retired_bytes']);
$failed = 0;
for ($i = 0; $i < 200; $i++) {
    $failed += (int) !Table::set('churn' . ($i % 40), str_repeat(chr(97 + $i % 26), 30000));
}
var_dump($failed);   // 6 MB through a 4 MB table: the held memory was freed and reused
?>
--EXPECT--
bool(true)
bool(true)
holding: 1, held entries: 2
churn stored: 300, retired entries held back: yes
array(5) {
  [0]=>
  int(2)
  [1]=>
  bool(true)
  [2]=>
  bool(true)
  [3]=>
  int(3)
  [4]=>
  NULL
}
int(0)
int(0)
int(0)
