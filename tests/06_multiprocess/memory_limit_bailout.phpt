--TEST--
Shm\Table: multiprocess: a worker dying of memory_limit while reading leaves nothing pinned or blocked
--INI--
table.memory=16M
table.eviction_policy=noeviction
zend.signal_check=1
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; table_skip_unless_pcntl(); table_skip_if_valgrind('memory_limit is off with USE_ZEND_ALLOC=0'); ?>
--FILE--
<?php
use Shm\Table;
require __DIR__ . '/../helpers.inc';

// 5 MB: over a 4 MB memory_limit, but far enough under PHP's hard limit to get the ordinary fatal error
Table::set('big', str_repeat('b', 5 * 1024 * 1024));
for ($i = 0; $i < 2; $i++) {
    $child = table_child_start(function () {
        ini_set('memory_limit', '4M');
        Table::get('big');
        return 'survived';
    });
    table_child_wait($child, 255);
}
// the dead readers pin nothing: 100 MB of overwrites through a 16 MB table
$failed = 0;
for ($i = 0; $i < 20; $i++) {
    $failed += !Table::set('big', str_repeat(chr(65 + $i), 5 * 1024 * 1024));
}
var_dump($failed, Table::get('big')[0]);
// and a fatal error inside the parent's own get() is handled the same way at shutdown
ini_set('memory_limit', '4M');
Table::get('big');
?>
--EXPECTF--
Fatal error: Allowed memory size of 4194304 bytes exhausted %s

Fatal error: Allowed memory size of 4194304 bytes exhausted %s
int(0)
string(1) "T"

Fatal error: Allowed memory size of 4194304 bytes exhausted %s
