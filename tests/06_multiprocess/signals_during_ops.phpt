--TEST--
Shm\Table: multiprocess: async signal handlers that use the table, arriving during table calls, never deadlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; table_skip_unless_pcntl(); table_skip_unless_posix(); table_skip_if_valgrind('PHP\'s zend_signal hands pcntl a dangling siginfo for deferred signals (Zend/zend_signal.c), a PHP bug'); ?>
--FILE--
<?php
use Shm\Table;
require __DIR__ . '/../helpers.inc';

pcntl_async_signals(true);
$handled = 0;
pcntl_signal(SIGUSR1, function () use (&$handled) {
    $handled++;
    Table::increment('in handler');
    Table::set('handler value', str_repeat('h', 1000));
    Table::get('k' . ($handled % 100));
});
$parent = getmypid();
// The loop below starts once a first signal has been handled: how soon a forked process gets to run on
// a loaded machine does not decide whether any signal arrives.
$sender = table_child_start(function () use ($parent) {
    for ($i = 0; $i < 2000 && !Table::get('stop'); $i++) {
        posix_kill($parent, SIGUSR1);
        usleep(200);
    }
    return true;
});
if (!table_wait_until(function () use (&$handled) { return $handled > 0; })) {
    echo "no signal arrived\n";
}
class Slow {
    public $v = 1;
    public function __serialize(): array { usleep(100); return ['v' => $this->v]; }
    public function __unserialize(array $d): void { usleep(100); $this->v = $d['v']; }
}
$ok = true;
for ($i = 0; $i < 3000; $i++) {
    $ok = $ok && Table::set('k' . ($i % 100), ['i' => $i, 'o' => new Slow]);
    $ok = $ok && Table::get('k' . ($i % 100)) !== null;
    Table::remember('r' . ($i % 10), fn() => $i);
    Table::increment('main');
}
Table::set('stop', true);
table_child_wait($sender);
pcntl_signal_dispatch();
var_dump($ok, Table::get('main'), $handled > 0, Table::get('in handler') === $handled);
?>
--EXPECT--
bool(true)
int(3000)
bool(true)
bool(true)
