--TEST--
Shm\Table: APCu API: the apcu namespace kept per process follows it when it is emptied, recycled and made again
--DESCRIPTION--
The per-key functions keep the "apcu" namespace's handle instead of looking the name up on every call. An
empty namespace can be recycled under another name when every id is taken; a kept handle then reads
nothing and a write through it is refused as stale. A miss through a kept handle asks the name again,
and a stale write resolves it again, so apcu_* still reads and writes the namespace named "apcu".
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; require __DIR__ . '/apcu.inc'; table_apcu_skipif(); ?>
--ENV--
PHP_INI_SCAN_DIR={PWD}/no-conf.d
--INI--
table.apcu_compat=1
apc.enable_cli=1
table.memory=16M
table.eviction_policy=noeviction
--FILE--
<?php
use Shm\Table;

/* Give every free namespace id a key (noeviction: nothing is evicted to free one), recycling any empty one
 * on the way; returns the next name's number. */
function fill(int $from): int
{
    try {
        for ($i = $from; $i < $from + 100000; $i++) {
            Table::set('x', $i, null, "other$i");
        }
    } catch (Shm\TableException $e) {
        return $i;
    }
    throw new Error('the table never filled');
}

var_dump(apcu_store('k', 1), apcu_delete('k'));          // "apcu" is kept, and empty
$next = fill(0);
echo "apcu recycled: ", var_export(!in_array('apcu', Table::namespaces(), true), true), "\n";
Table::delete('x', 'other0');                             // one id free again

// A write through the kept, stale handle: refused as stale, resolved again (made anew), retried.
var_dump(apcu_store('k', 2), apcu_fetch('k'), Table::get('k', 'apcu'));
var_dump(apcu_inc('n'), apcu_inc('n'), Table::get('n', 'apcu'));

// Recycled again, and made again by Shm\Table under another id: a fetch through the kept handle misses,
// asks the name again and reads what is there now.
var_dump(apcu_delete(['k', 'n']));
Table::set('x', 0, null, "other$next");                   // takes the empty "apcu"'s id
echo "apcu recycled again: ", var_export(!in_array('apcu', Table::namespaces(), true), true), "\n";
Table::delete('x', 'other1');
Table::set('k', 3, null, 'apcu');
var_dump(apcu_fetch('k'), apcu_exists('k'), apcu_cas('k', 3, 4), apcu_fetch('k'), apcu_delete('k'), apcu_fetch('k'));
?>
--EXPECT--
bool(true)
bool(true)
apcu recycled: true
bool(true)
int(2)
int(2)
int(1)
int(2)
int(2)
array(0) {
}
apcu recycled again: true
int(3)
bool(true)
bool(true)
int(4)
bool(true)
bool(false)
