--TEST--
Shm\Table: redis tier: table.redis_allowed_classes with igbinary, which cannot restrict classes: refused with table.serializer=igbinary, and igbinary values from Redis are refused under a list
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; table_skip_unless_posix(); table_skip_unless_igbinary(); require __DIR__ . '/tier.inc'; tier_skipif(); ?>
--FILE--
<?php
require __DIR__ . '/tier.inc';
$r = tier_redis_start();
$try = 'try { Table::get("k", "local"); echo "available\n"; } catch (Shm\TableException $e) { echo $e->getMessage(), "\n"; }';
foreach (['Quiet', 'none', '*'] as $setting) {
    echo "igbinary, $setting: ", tier_run($r, $try, ['table.serializer' => 'igbinary', 'table.redis_allowed_classes' => $setting]);
}

// An igbinary value in Redis (a host with table.serializer=igbinary wrote it, or a Redis client planted
// it), read by a host with table.serializer=php: igbinary has no way to refuse a class, so under a list
// such a value is refused whole, even when it holds only listed classes.
$classes = 'class Loud { public function __wakeup() { echo "  Loud::__wakeup() ran\n"; } } class Quiet {} ';
echo tier_run($r, $classes . 'var_dump(Table::setMany(["loud" => new Loud, "quiet" => new Quiet], null, "shared"));',
    ['table.serializer' => 'igbinary']);
foreach (['*', 'Quiet', 'Quiet,Loud'] as $setting) {
    echo "php, $setting:\n", tier_run($r, $classes . <<<'PHP'
foreach (['loud', 'quiet'] as $k) {
    try { $c = get_class(Table::get($k, 'shared')); echo "  $k: $c\n"; } catch (Shm\TableException $e) { echo "  $k: ", $e->getMessage(), "\n"; }
}
PHP, ['table.redis_allowed_classes' => $setting]);
}
?>
--EXPECT--
igbinary, Quiet: Shm\Table is unavailable: table.redis_allowed_classes=Quiet cannot be enforced with table.serializer=igbinary (igbinary cannot refuse a class); use table.serializer=php, or table.redis_allowed_classes=*
igbinary, none: Shm\Table is unavailable: table.redis_allowed_classes=none cannot be enforced with table.serializer=igbinary (igbinary cannot refuse a class); use table.serializer=php, or table.redis_allowed_classes=*
igbinary, *: available
bool(true)
php, *:
  Loud::__wakeup() ran
  loud: Loud
  quiet: Quiet
php, Quiet:
  loud: Shm\Table::get(): the stored value cannot be read (an igbinary value, whose classes cannot be checked against table.redis_allowed_classes; store objects with table.serializer=php)
  quiet: Shm\Table::get(): the stored value cannot be read (an igbinary value, whose classes cannot be checked against table.redis_allowed_classes; store objects with table.serializer=php)
php, Quiet,Loud:
  loud: Shm\Table::get(): the stored value cannot be read (an igbinary value, whose classes cannot be checked against table.redis_allowed_classes; store objects with table.serializer=php)
  quiet: Shm\Table::get(): the stored value cannot be read (an igbinary value, whose classes cannot be checked against table.redis_allowed_classes; store objects with table.serializer=php)
