--TEST--
Shm\Table: ttl: an entry set with $expire = 1 is still there a few milliseconds later, across a second boundary
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

// Set the entries just before the wall clock reaches a new second, look at them just after it.
// An expiry counted in whole seconds must not cut a 1-second lifetime down to a few milliseconds.
$results = [];
for ($round = 0; $round < 3; $round++) {
    $wait = 0.97 - fmod(microtime(true), 1.0);
    usleep((int) (($wait < 0 ? $wait + 1.0 : $wait) * 1e6));
    Table::set("one$round", 'v', 1);
    Table::set("two$round", 'v', 2);
    usleep(60000);
    $results[] = [Table::exists("one$round"), Table::ttl("one$round"), Table::exists("two$round"), Table::ttl("two$round")];
}
foreach ($results as $i => [$e1, $t1, $e2, $t2]) {
    echo "round $i: expire=1 ", $e1 ? 'present' : 'GONE', ', ttl ', var_export($t1, true),
        '; expire=2 ', $e2 ? 'present' : 'GONE', ', ttl ', var_export($t2, true), "\n";
}
?>
--EXPECTF--
round 0: expire=1 present, ttl 1; expire=2 present, ttl %r[12]%r
round 1: expire=1 present, ttl 1; expire=2 present, ttl %r[12]%r
round 2: expire=1 present, ttl 1; expire=2 present, ttl %r[12]%r
