--TEST--
Shm\Table: observability: writers SIGKILLed while holding a lock show up as lock repairs and GC runs, in stats() and metrics() alike
--INI--
table.zero_copy=0
table.memory=16M
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; table_skip_unless_pcntl(); table_skip_unless_posix(); ?>
--FILE--
<?php
use Shm\Table;
require __DIR__ . '/../helpers.inc';
require __DIR__ . '/observability.inc';

// Kill a writer at a random moment of its setMany/deleteMany loop (once it is looping, so that a slow
// machine or valgrind does not kill it while it only builds its first batch) until one died holding a
// lock. Most rounds do; the bound only keeps a failure from looping forever.
mt_srand(7);
$before = Table::stats();
for ($round = 0; $round < 200; $round++) {
    $child = table_child_start(function () use ($round) {
            for ($i = 0; ; $i++) {
            $batch = [];
            for ($j = 0; $j < 300; $j++) {
                $batch["b$j"] = str_repeat('x', 100 + $j);
            }
            Table::setMany($batch, null, 'batch');
            if ($i === 0) {
                Table::set("looping$round", true);
            }
            Table::deleteMany(array_keys($batch), 'batch');
        }
    });
    table_wait_until(fn() => Table::exists("looping$round"));
    usleep(mt_rand(0, 20000));
    posix_kill($child['pid'], SIGKILL);
    table_child_wait($child, 0, SIGKILL);
    Table::set("after$round", $round);   // a write: repairs a lock left held, runs the GC when needed
    $s = Table::stats();
    if ($s['lock_repairs'] > 0 && $s['gc_runs'] > 0) {
        break;
    }
}
$s = Table::stats();
$p = obs_parse(Table::metrics());
var_dump($before['lock_repairs'], $before['gc_runs']);
var_dump($s['lock_repairs'] > 0, $s['gc_runs'] > 0, $s['gc_runs'] <= $s['lock_repairs']);
var_dump(obs_value($p, 'table_lock_repairs_total') === $s['lock_repairs'], obs_value($p, 'table_gc_runs_total') === $s['gc_runs']);
echo implode('; ', obs_compare($s, $p)) ?: 'agree', "\n";
?>
--EXPECT--
int(0)
int(0)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
agree
