<?php
// One counted request: the shared counter, and one counter per worker pid. The response has a fixed
// length, so that ab counts no "Length" failures.
$n = Shm\Table::increment('hits');
Shm\Table::increment((string) getmypid(), 1, null, 'pids');
header('Content-Type: text/plain');
printf("%10d %20d\n", getmypid(), $n);
