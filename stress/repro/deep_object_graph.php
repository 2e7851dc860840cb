<?php
/*
 * Repro: an object graph nested deeper than unserialize_max_depth (4096 by default) is accepted by set()
 * (true), but get() can never return it: it warns and throws "the stored value is corrupt". Nested
 * arrays are refused up front (ValueError past 512 levels); nested objects are not checked at all.
 *
 *   php -d extension=/abs/table.so stress/repro/deep_object_graph.php
 */
use Shm\Table;

$o = new stdClass();
$cur = $o;
for ($i = 1; $i < 5000; $i++) {
    $cur->child = new stdClass();
    $cur = $cur->child;
}
var_dump(Table::set('deep', $o));
try {
    Table::get('deep');
    echo "get: ok\n";
} catch (Throwable $e) {
    echo 'get: ', get_class($e), ': ', $e->getMessage(), "\n";
}
var_dump(Table::exists('deep'));   // true: it takes memory, and only delete()/clear() can remove it
