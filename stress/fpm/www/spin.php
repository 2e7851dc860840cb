<?php
// Table calls in a loop until FPM's request_terminate_timeout kills the worker (SIGTERM) mid-operation.
Shm\Table::set('spinning ' . getmypid(), true);
$big = str_repeat('s', 30000);
for ($i = 0; ; $i++) {
    Shm\Table::set('spin' . ($i % 64), [$i, $i % 5 ? 'x' : $big]);
    Shm\Table::get('spin' . (($i * 7) % 64));
    Shm\Table::increment('spins');
    Shm\Table::setMany(['sa' . ($i % 16) => $i, 'sb' . ($i % 16) => [$i]], null, 'spinns');
    Shm\Table::delete('spin' . (($i * 3) % 64));
}
