--TEST--
Shm\Table: reliability: max_execution_time firing in a tight loop of table calls leaves no lock held and the table consistent
--INI--
zend.signal_check=1
max_execution_time=0
table.memory=8M
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; table_skip_unless_pcntl(); table_skip_unless_posix(); ?>
--FILE--
<?php
use Shm\Table;
require __DIR__ . '/../helpers.inc';
require __DIR__ . '/reliability.inc';

rel_seed(300);
register_shutdown_function(function () {
    // Shutdown functions run after the timeout's fatal error, in the same process.
    set_time_limit(60);
    $e = error_get_last();
    echo 'timed out: ', var_export(str_contains($e['message'] ?? '', 'Maximum execution time'), true), "\n";
    echo 'seeded values intact: ', rel_verify_seeded(300) === 0 ? 'yes' : 'NO', "\n";
    echo rel_consistency(), "\n";
    // A forked child first, while this process has not touched the table since the timeout.
    echo 'child: ', rel_in_child(fn() => rel_locks_free('child') . ', ' . rel_consistency()), "\n";
    echo 'this process: ', rel_locks_free('parent'), "\n";
    echo 'loop keys readable: ', count(Table::getMany(array_map(fn($i) => "loop$i", range(0, 63)))) > 0 ? 'yes' : 'NO', "\n";
    echo rel_consistency(), "\n";
});

set_time_limit(1);
$big = str_repeat('b', 20000);
for ($i = 0; ; $i++) {
    $k = 'loop' . ($i % 64);
    Table::set($k, ['i' => $i, 'pad' => $i % 7 ? 'small' : $big]);
    Table::get('loop' . (($i * 7) % 64));
    Table::increment('n');
    Table::setMany(["m$i" => $i, 'm' . ($i + 1) => [$i]], null, 'loopns');
    Table::deleteMany(["m$i", 'm' . ($i + 1)], 'loopns');
    Table::getWithMeta($k);
    Table::add("a$i", $i, 1);
    Table::delete("a$i");
    Table::cas('n', Table::get('n'), 0);
    Table::remember('r' . ($i % 8), fn() => $i);
    if ($i % 50 === 0) {
        foreach (Table::fullscan('loop*', 8) as $ns => $key) {
            break;
        }
        Table::clear('loopns');
    }
}
?>
--EXPECTF--
Fatal error: Maximum execution time of 1 second exceeded in %s on line %d
timed out: true
seeded values intact: yes
consistent
child: locks free, consistent
this process: locks free
loop keys readable: yes
consistent
