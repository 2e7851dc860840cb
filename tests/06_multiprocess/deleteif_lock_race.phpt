--TEST--
Shm\Table: multiprocess: locks released with deleteIf() in 4 workers: only the owner ever deletes, and a lock taken after the previous one expired survives its old owner's release
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; table_skip_unless_pcntl(); ?>
--FILE--
<?php
use Shm\Table;
require __DIR__ . '/../helpers.inc';

// 1. Racing acquire/release. A worker owns the lock while add() with its token succeeded; inside, it
// does a non-atomic read-modify-write of 'c' (exact only under mutual exclusion), then releases with
// deleteIf(). Between attempts it also tries to release with tokens it no longer owns: its previous
// token, and a token another worker may hold right now. None of those may ever delete anything.
Table::set('c', 0);
$results = table_fork(4, function (int $w) {
    $acquired = $released = $foreign = $stolen = 0;
    $previous = null;
    for ($i = 0; $acquired < 300; $i++) {
        $token = "w$w:$i";
        if (!Table::add('lock', $token)) {
            // not ours: a release with a stale or a guessed token must leave it alone
            $held = Table::get('lock');
            if ($previous !== null && Table::deleteIf('lock', $previous)) {
                $foreign++;
            }
            if (Table::deleteIf('lock', 'w' . (($w + 1) % 4) . ':0-not-a-token')) {
                $foreign++;
            }
            continue;
        }
        $acquired++;
        Table::set('c', Table::get('c') + 1);
        if (Table::get('lock') !== $token) {
            $stolen++;
        }
        if (Table::deleteIf('lock', $token)) {
            $released++;
        }
        $previous = $token;
    }
    return [$acquired, $released, $foreign, $stolen];
});
$sum = [0, 0, 0, 0];
foreach ($results as $r) {
    foreach ($r as $i => $v) {
        $sum[$i] += $v;
    }
}
echo "acquired $sum[0], released $sum[1], foreign deletes $sum[2], stolen $sum[3]\n";
var_dump(Table::get('c'), Table::exists('lock'));

// 2. Forced: the owner's TTL runs out after its ownership check, another process takes the lock, then
// the old owner releases. Pipes order the steps; only the expiry itself needs time to pass.
[$toA, $fromParent] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
$a = table_child_start(function () use ($fromParent) {
    // The lock lives at least 2 s: a run with a stall that long before the check is done again (after
    // taking back its own lock, should it still be there).
    [$took, $checked] = table_unstalled(1.5, function () {
        Table::deleteIf('lock', 'owner-a');
        $took = Table::add('lock', 'owner-a', 2);
        return [$took, Table::get('lock') === 'owner-a'];   // the check: still ours
    });
    fwrite($fromParent, 'c');
    fread($fromParent, 1);                           // ... the TTL runs out, owner-b takes the lock ...
    return [$took, $checked, Table::deleteIf('lock', 'owner-a')];
});
fread($toA, 1);
var_dump(table_wait_until(fn() => !Table::exists('lock')));   // owner-a's TTL ran out
$b = table_child_start(fn() => Table::add('lock', 'owner-b', 100));
var_dump(table_child_wait($b));
fwrite($toA, 'g');
var_dump(table_child_wait($a));
var_dump(Table::get('lock'));                      // owner-b's lock survived owner-a's release
var_dump(Table::deleteIf('lock', 'owner-b'), Table::exists('lock'));
?>
--EXPECT--
acquired 1200, released 1200, foreign deletes 0, stolen 0
int(1200)
bool(false)
bool(true)
bool(true)
array(3) {
  [0]=>
  bool(true)
  [1]=>
  bool(true)
  [2]=>
  bool(false)
}
string(7) "owner-b"
bool(true)
bool(false)
