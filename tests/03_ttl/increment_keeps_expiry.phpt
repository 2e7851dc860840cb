--TEST--
Shm\Table: ttl: increment/decrement give a new key $expire and keep an existing key's expiry
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

// existing key: its expiry is kept, $expire is ignored
Table::set('k', 1, 1000);
var_dump(Table::increment('k', 1, 5));
var_dump(Table::ttl('k') > 900);
var_dump(Table::decrement('k', 1, 5), Table::ttl('k') > 900);
var_dump(Table::increment('k'), Table::ttl('k') > 900);
// existing key without expiry stays without
Table::set('n', 1);
var_dump(Table::increment('n', 1, 5), Table::ttl('n'));
// a missing key gets $expire
var_dump(Table::increment('new', 1, 100));
$t = Table::ttl('new');
var_dump($t >= 1 && $t <= 100);
var_dump(Table::decrement('newd', 1, 100), Table::ttl('newd') <= 100);
// and really expires
Table::increment('short', 10, 1);
sleep(2);
var_dump(Table::exists('short'), Table::increment('short'), Table::ttl('short'));
?>
--EXPECT--
int(2)
bool(true)
int(1)
bool(true)
int(2)
bool(true)
int(2)
bool(false)
int(1)
bool(true)
int(-1)
bool(true)
bool(false)
int(1)
bool(false)
