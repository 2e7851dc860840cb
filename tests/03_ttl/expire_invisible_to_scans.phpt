--TEST--
Shm\Table: ttl: expired entries vanish from count, keys, fullscan, getMany, namespaces and stats
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;
require __DIR__ . '/../helpers.inc';

Table::set('keep', 'k');
Table::set('kept', 'kept', null, 'stays');
// A TTL of 2 keeps the entries for at least 2 seconds: count them only in a run without a stall that
// long between the sets and the counts (a slow run sets them again).
var_dump(...table_unstalled(1.5, function () {
    for ($i = 0; $i < 10; $i++) {
        Table::set("short$i", $i, 2);
    }
    Table::set('only', 'expiring', 2, 'gone');
    return [Table::count(), Table::count('gone'), count(Table::keys(null))];
}));
sleep(3);
var_dump(Table::count());
var_dump(Table::keys(null), Table::keys('short*'));
$scan = [];
foreach (Table::fullscan() as $ns => $key) {
    $scan[] = ($ns ?? '-') . ':' . $key;
}
sort($scan);
var_dump($scan);
var_dump(Table::getMany(['short1', 'keep', 'short2']));
var_dump(Table::count('gone'), Table::namespaces());
$s = Table::stats();
var_dump($s['entries']);
var_dump(isset($s['namespaces']['gone']) ? $s['namespaces']['gone']['count'] : 0);
var_dump($s['namespaces']['']['count']);
?>
--EXPECT--
int(11)
int(1)
int(11)
int(1)
array(1) {
  [0]=>
  string(4) "keep"
}
array(0) {
}
array(2) {
  [0]=>
  string(6) "-:keep"
  [1]=>
  string(10) "stays:kept"
}
array(1) {
  ["keep"]=>
  string(1) "k"
}
int(0)
array(1) {
  [0]=>
  string(5) "stays"
}
int(2)
int(0)
int(1)
