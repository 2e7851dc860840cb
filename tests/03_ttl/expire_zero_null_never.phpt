--TEST--
Shm\Table: ttl: 0 and null mean never for every method that takes $expire
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

foreach ([0, null] as $e) {
    $tag = var_export($e, true);
    Table::set("set$tag", 1, $e);
    Table::add("add$tag", 1, $e);
    Table::increment("inc$tag", 1, $e);
    Table::decrement("dec$tag", 1, $e);
    Table::setMany(["many$tag" => 1], $e);
    Table::remember("rem$tag", fn() => 1, $e);
}
$r = [];
foreach (Table::keys(null) as $k) {
    $r[$k] = [Table::ttl($k), Table::getWithMeta($k)[1]['ttl']];
}
ksort($r);
foreach ($r as $k => [$ttl, $meta]) {
    echo $k, ': ', var_export($ttl, true), ' ', $meta, "\n";
}
sleep(1);
var_dump(Table::count());
?>
--EXPECT--
add0: false -1
addNULL: false -1
dec0: false -1
decNULL: false -1
inc0: false -1
incNULL: false -1
many0: false -1
manyNULL: false -1
rem0: false -1
remNULL: false -1
set0: false -1
setNULL: false -1
int(12)
