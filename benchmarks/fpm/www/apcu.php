<?php
// One benchmark request against APCu: read ?n= consecutive records ("m:<i>", i modulo ?keys=) from a
// random key on (or from ?at=), and count every element of each, nested ones included, so that no read is
// in vain. A miss is an HTTP 500. table.php is this file with Shm\Table::get() in place of apcu_fetch().
$n = (int) ($_GET['n'] ?? 200);
$keys = (int) ($_GET['keys'] ?? 1000);
$at = isset($_GET['at']) ? (int) $_GET['at'] : mt_rand(0, $keys - 1);
$sum = 0;
for ($i = 0; $i < $n; $i++) {
    $key = 'm:' . (($at + $i) % $keys);
    $v = apcu_fetch($key);
    if (!is_array($v)) {
        http_response_code(500);
        exit("miss $key\n");
    }
    $sum += count($v, COUNT_RECURSIVE);
}
echo "ok $n $sum\n";
