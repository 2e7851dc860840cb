--TEST--
Shm\Table: multiprocess: a worker SIGKILLed inside remember() doesn't block the key
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; table_skip_unless_pcntl(); table_skip_unless_posix(); ?>
--FILE--
<?php
use Shm\Table;
require __DIR__ . '/../helpers.inc';

$child = table_child_start(function () {
    return Table::remember('k', function () {
        Table::set('computing', true);
        sleep(60);
        return 'never';
    });
});
table_wait_until(fn() => Table::exists('computing'));
posix_kill($child['pid'], SIGKILL);
table_child_wait($child, 0, SIGKILL);
var_dump(Table::remember('k', fn() => 'taken over'));
var_dump(Table::get('k'));
?>
--EXPECT--
string(10) "taken over"
string(10) "taken over"
