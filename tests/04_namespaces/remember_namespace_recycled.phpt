--TEST--
Shm\Table: namespaces: remember() stores its value even when its namespace was emptied and recycled while $compute ran
--INI--
table.memory=16M
table.eviction_policy=noeviction
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

$v = Table::remember('k', function () {
    // 'victim' exists but is empty while we compute. Take every other namespace id (65,533 in all),
    // holding a key each, until the table refuses: on the way the empty 'victim' may be recycled under
    // another name. (noeviction: under lru, evicted keys would leave namespaces empty to recycle forever.)
    $made = 0;
    try {
        for ($i = 0; $i < 100000; $i++) {
            Table::set('x', $i, null, "other$i");
            $made++;
        }
    } catch (Shm\TableException $e) {
        echo 'full after ', $made > 10 ? 'many' : $made, ' namespaces: ', $e->getMessage() !== '' ? 'yes' : 'no', "\n";
    }
    Table::delete('x', 'other0');   // one id free again, for 'victim' to come back in
    return 'computed';
}, null, 'victim');
var_dump($v, Table::get('k', 'victim'), in_array('victim', Table::namespaces(), true));
?>
--EXPECT--
full after many namespaces: yes
string(8) "computed"
string(8) "computed"
bool(true)
