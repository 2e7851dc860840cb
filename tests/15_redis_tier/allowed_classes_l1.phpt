--TEST--
Shm\Table: redis tier: table.redis_allowed_classes also governs the L1's copy of a Redis value: a process of a named segment that allows fewer classes refuses what another one cached
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; table_skip_unless_posix(); require __DIR__ . '/tier.inc'; tier_skipif(); ?>
--FILE--
<?php
require __DIR__ . '/tier.inc';
/* The L1 keeps the bytes read from Redis and decodes them on every hit, so the check is made when a
 * copy is decoded, with the reading process's setting: x (any class) caches a planted object in the
 * segment's L1, y (Quiet only, e.g. another php-fpm pool with its own php_admin_value) reads it from
 * there and must refuse it, without running anything of it. */
$r = tier_redis_start();
$s = stream_socket_client('unix://' . $r['sock']);
$key = 'table:6:shared:k';
$value = "\0\x07" . 'O:4:"Loud":0:{}';
fwrite($s, sprintf("*3\r\n\$3\r\nSET\r\n\$%d\r\n%s\r\n\$%d\r\n%s\r\n", strlen($key), $key, strlen($value), $value));
var_dump(fgets($s));
fclose($s);

$classes = 'class Loud { public function __wakeup() { $GLOBALS["ran"][] = "__wakeup"; } public function __destruct() { $GLOBALS["ran"][] = "__destruct"; } } return true;';
$seg = ['table.segment' => 'ac', 'table.segment_dir' => $r['dir']];
$x = tier_agent($r, $seg + ['table.redis_allowed_classes' => '*']);
$y = tier_agent($r, $seg + ['table.redis_allowed_classes' => 'Quiet']);
var_dump(tier_do($x, $classes), tier_do($y, $classes), tier_wait_fresh($x));
// x reads until a read is an L1 hit (its first read fills the copy); then y reads the copy, while the L1
// is fresh. A flush between the two (the helper empties the L1 when a PING goes unanswered for
// table.redis_timeout, which a loaded machine can cause) drops the copy: only then is the pair done again.
$xHit = 'Shm\Table::get("k", "shared"); $h = Shm\Table::stats()["hits"]; $v = Shm\Table::get("k", "shared"); '
    . '$s = Shm\Table::stats(); return [$s["hits"] - $h === 1 && $v instanceof Loud, $s["redis"]["flushes"]];';
$yRead = '$h = Shm\Table::stats()["hits"]; try { Shm\Table::get("k", "shared"); $e = "no exception"; } '
    . 'catch (Shm\TableException $ex) { $e = $ex->getMessage(); } $st = Shm\Table::stats(); '
    . 'return [$e, $st["hits"] - $h, $st["redis"]["flushes"], $GLOBALS["ran"] ?? []];';
$got = null;
var_dump(table_wait_until(function () use ($x, $y, $xHit, $yRead, &$got) {
    [$hit, $flushes] = tier_do($x, $xHit);
    if (!$hit) {
        return false;
    }
    $got = tier_do_fresh($y, $yRead);
    return $got !== null && $got[2] === $flushes;
}));
[$message, $hits, , $ran] = $got;
echo "y: $message\n";
echo "y's read was an L1 hit: ", var_export($hits === 1, true), "\n";
echo "ran in y: ", json_encode($ran), "\n";
echo "ran in x: ", json_encode(tier_do($x, 'return array_unique($GLOBALS["ran"]);')), "\n";
seg_wait($x);
seg_wait($y);
?>
--EXPECT--
string(5) "+OK
"
bool(true)
bool(true)
bool(true)
bool(true)
y: Shm\Table::get(): the stored value cannot be read (it holds an object of class Loud, which is not in table.redis_allowed_classes)
y's read was an L1 hit: true
ran in y: []
ran in x: ["__wakeup","__destruct"]
