--TEST--
Shm\Table: getWithMeta: returns [value, meta] with cached, length, ttl, created and updated
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

$before = time();
Table::set('k', str_repeat('x', 1000));
Table::set('e', 'v', 100);
$after = time();

$r = Table::getWithMeta('k');
var_dump(is_array($r), count($r), array_keys($r));
[$value, $meta] = $r;
var_dump($value === str_repeat('x', 1000));
var_dump(array_keys($meta));
var_dump($meta['cached']);
var_dump(is_int($meta['length']) && $meta['length'] >= 1000);
var_dump($meta['ttl']);
var_dump(is_int($meta['created']) && $meta['created'] >= $before && $meta['created'] <= $after);
var_dump(is_int($meta['updated']) && $meta['updated'] >= $meta['created'] && $meta['updated'] <= $after);

[$value, $meta] = Table::getWithMeta('e');
var_dump($value);
var_dump(is_int($meta['ttl']) && $meta['ttl'] >= 1 && $meta['ttl'] <= 100);

// a bigger value reports a bigger length
var_dump($meta['length'] < Table::getWithMeta('k')[1]['length']);

// named namespace
Table::set('k', [1, 2, 3], null, 'ns');
var_dump(Table::getWithMeta('k', 'ns')[0]);
?>
--EXPECT--
bool(true)
int(2)
array(2) {
  [0]=>
  int(0)
  [1]=>
  int(1)
}
bool(true)
array(5) {
  [0]=>
  string(6) "cached"
  [1]=>
  string(6) "length"
  [2]=>
  string(3) "ttl"
  [3]=>
  string(7) "created"
  [4]=>
  string(7) "updated"
}
bool(true)
bool(true)
int(-1)
bool(true)
bool(true)
string(1) "v"
bool(true)
bool(true)
array(3) {
  [0]=>
  int(1)
  [1]=>
  int(2)
  [2]=>
  int(3)
}
