--TEST--
Shm\Table: namespaces: emptied namespaces don't count against the namespace limit forever
--INI--
table.memory=2M
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

// Create distinct short-lived namespaces (say, one per tenant or per job), far more in total than the
// limit of a 2 MB table, but never more than a few at a time.
$error = null;
for ($i = 0; $i < 5000 && $error === null; $i++) {
    try {
        Table::set('k', $i, null, "job$i");
        Table::delete('k', "job$i");
        if ($i % 100 === 99) {
            Table::clearAll();
        }
    } catch (Shm\TableException $e) {
        $error = "after $i namespaces: " . $e->getMessage();
    }
}
echo $error ?? 'no error', "\n";
var_dump(Table::namespaces());
?>
--EXPECT--
no error
array(0) {
}
