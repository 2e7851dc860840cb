--TEST--
Shm\Table: zero-copy: a worker holding arrays that forks copies its holds to the child, whose inherited arrays stay intact after the parent's request ends
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

$value = ['name' => 'inherited', 'blob' => str_repeat('i', 100000), 'list' => range(1, 100)];
Table::set('k', $value);

// Worker A reads 'k' zero-copy (it holds it), forks B and exits: A's hold goes with it, and B keeps the
// copy of the hold it got at the fork. The parent then replaces and deletes 'k' and churns far past what the
// table holds; B's inherited array must still be intact.
// Plain forks: B must not inherit a result socket its grandparent waits on.
$a = pcntl_fork();
if ($a === 0) {
    $held = Table::get('k');
    if (pcntl_fork() === 0) {
        Table::set('b_ready', true);
        while (!Table::exists('parent_done')) {
            usleep(1000);
        }
        Table::set('b_verdict', $held === $value ? 'intact' : 'CORRUPT');
        exit(0);
    }
    table_wait_until(fn() => Table::exists('b_ready'));
    Table::set('a_saw_pins', Table::stats()['pins']);
    exit(0);
}
pcntl_waitpid($a, $status);
echo "holders while A and B live: ", Table::get('a_saw_pins'), "\n";
echo "holders after A exited: ", Table::stats()['pins'], "\n";
Table::set('k', ['other' => str_repeat('o', 100000)]);
Table::delete('k');
$stored = 0;
for ($i = 0; $i < 60; $i++) {
    $stored += (int) Table::set('churn' . ($i % 8), str_repeat(chr(97 + $i % 26), 100000));
}
Table::set('parent_done', true);
table_wait_until(fn() => Table::exists('b_verdict'));
var_dump(Table::get('b_verdict'));
// B's request ended with its exit: nothing is held any more, and the memory comes back.
var_dump(table_wait_until(fn() => Table::stats()['pins'] === 0));
$failed = 0;
for ($i = 0; $i < 60; $i++) {
    $failed += (int) !Table::set('churn' . ($i % 8), str_repeat(chr(65 + $i % 26), 100000));
}
var_dump($failed);
?>
--EXPECT--
holders while A and B live: 2
holders after A exited: 1
string(6) "intact"
bool(true)
int(0)
