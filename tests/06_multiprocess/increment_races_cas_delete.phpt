--TEST--
Shm\Table: multiprocess: increment() (lock-free on a live integer) stays exact against racing cas(), a cas() to a string and back, deleteIf() and add()
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; table_skip_unless_pcntl(); ?>
--FILE--
<?php
use Shm\Table;
require __DIR__ . '/../helpers.inc';

// Two workers increment 'n' (by 1 and by 3) until the third has done 100 rounds of each of: a cas() to
// the same integer (a new entry), a cas() to a string and back (increments in between throw and are not
// counted), a deleteIf() of the integer it read (what it removed is counted) and an add() when 'n' is
// missing. Every increment that returned is in the total: n = added - removed + put back.
Table::set('n', 0);
Table::set('rounds_done', 0);
$r = table_fork(3, function (int $w) {
    if ($w < 2) {
        $by = $w ? 3 : 1;
        $added = 0;
        for ($i = 0; $i < 2000 || Table::get('rounds_done') === 0; $i++) {
            try {
                Table::increment('n', $by);
                $added += $by;
            } catch (Shm\TableException $e) {
                // 'n' holds the disturber's string for a moment
            }
        }
        return ['added' => $added];
    }
    $removed = $putBack = 0;
    $done = [0, 0, 0];
    for ($round = 0; $round < 300; ) {
        $v = Table::get('n');
        if ($v === null) {
            if (Table::add('n', 1000)) {
                $putBack += 1000;
            }
            continue;
        }
        $kind = $round % 3;
        if ($kind === 0 && Table::cas('n', $v, $v)) {
            $done[0]++;
            $round++;
        } elseif ($kind === 1 && Table::cas('n', $v, "S$v")) {
            if (!Table::cas('n', "S$v", $v)) {
                return 'the cas back missed';
            }
            $done[1]++;
            $round++;
        } elseif ($kind === 2 && Table::deleteIf('n', $v)) {
            $removed += $v;
            $done[2]++;
            $round++;
        }
    }
    Table::set('rounds_done', 1);
    return ['removed' => $removed, 'put_back' => $putBack, 'done' => $done];
});
var_dump($r[2]['done']);
$expected = $r[0]['added'] + $r[1]['added'] - $r[2]['removed'] + $r[2]['put_back'];
$n = Table::get('n') ?? 0;
var_dump($n === $expected ? 'exact' : "n = $n, expected $expected");
?>
--EXPECT--
array(3) {
  [0]=>
  int(100)
  [1]=>
  int(100)
  [2]=>
  int(100)
}
string(5) "exact"
