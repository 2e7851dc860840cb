--TEST--
Shm\Table: redis tier: table.redis_allowed_classes: objects of other classes in a value from Redis are refused before anything in it is built
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; table_skip_unless_posix(); require __DIR__ . '/tier.inc'; tier_skipif(); ?>
--FILE--
<?php
require __DIR__ . '/tier.inc';
/* Issue 33, finding 10. Any client of the Redis can write a serialized object under a tiered key, and
 * get() used to build it: its class's __wakeup() and __destruct() ran in the reading PHP process. Values
 * are planted raw (NUL, type 7: a PHP-serialized value, then serialize()'s bytes), as a Redis client
 * would, then read by a host of its own under each setting, through get() and getMany(). */
$r = tier_redis_start();

function raw_set(array $r, string $key, string $value): void
{
    $s = stream_socket_client('unix://' . $r['sock']);
    fwrite($s, sprintf("*3\r\n\$3\r\nSET\r\n\$%d\r\n%s\r\n\$%d\r\n%s\r\n", strlen($key), $key, strlen($value), $value));
    $ok = fgets($s);
    fclose($s);
    if ($ok !== "+OK\r\n") {
        throw new RuntimeException('SET answered ' . var_export($ok, true));
    }
}

echo tier_run($r, 'var_dump(Table::set("probe", "x", null, "shared"));');
$prefix = substr(tier_cli($r, 'KEYS', '*probe'), 0, -strlen('probe'));

$planted = [
    'Loud' => 'O:4:"Loud":1:{s:5:"child";N;}',
    'Quiet' => 'O:5:"Quiet":1:{s:5:"child";N;}',
    'Quiet holding Loud' => 'O:5:"Quiet":1:{s:5:"child";O:4:"Loud":1:{s:5:"child";N;}}',
    'an array holding Loud' => 'a:2:{i:0;s:1:"x";s:1:"y";a:1:{i:0;O:4:"Loud":1:{s:5:"child";N;}}}',
    'Quiet holding a string that looks like Loud' => 'O:5:"Quiet":1:{s:5:"child";s:29:"O:4:"Loud":1:{s:5:"child";N;}";}',
    'Suit::Hearts (an enum case)' => 'E:11:"Suit:Hearts";',
    'stdClass' => 'O:8:"stdClass":1:{s:1:"a";i:1;}',
    'an undefined class' => 'O:7:"Missing":0:{}',
    'Loud, then bytes not in serialize() format' => 'O:4:"Loud":1:{s:5:"child";X;}',
    'bytes not in serialize() format' => 'a:1:{i:0;X;}',
];
$keys = [];
foreach (array_keys($planted) as $i => $what) {
    raw_set($r, $prefix . "k$i", "\0\x07" . $planted[$what]);
    $keys[$what] = "k$i";
}

const CLASSES = <<<'PHP'
class Loud { public $child; public function __wakeup() { echo "    Loud::__wakeup() ran\n"; } public function __destruct() { echo "    Loud::__destruct() ran\n"; } }
class Quiet { public $child; }
enum Suit { case Hearts; }
spl_autoload_register(function ($c) { echo "    autoload($c) ran\n"; });
function describe($v) {
    if (is_array($v)) { return '[' . implode(', ', array_map('describe', $v)) . ']'; }
    if ($v instanceof UnitEnum) { return get_class($v) . '::' . $v->name; }
    if ($v instanceof __PHP_Incomplete_Class) { return get_class($v); }
    if (is_object($v)) { return get_class($v) . (isset($v->child) ? '(' . describe($v->child) . ')' : ''); }
    return json_encode($v);
}
PHP;

$read = CLASSES . '$keys = ' . var_export($keys, true) . ';' . <<<'PHP'
foreach ($keys as $what => $k) {
    echo "  $what:\n";
    foreach (['get' => fn () => Table::get($k, 'shared'), 'getMany' => fn () => Table::getMany([$k], 'shared')[$k]] as $m => $f) {
        try { $v = $f(); echo "    $m: ", describe($v), "\n"; unset($v); }
        catch (Shm\TableException $e) { echo "    $m: ", get_class($e), ': ', $e->getMessage(), "\n"; }
    }
}
PHP;
foreach (['*', 'none', '', ' quiet , Suit,App\Model\User '] as $setting) {
    echo "table.redis_allowed_classes=$setting\n";
    echo tier_run($r, $read, ['table.redis_allowed_classes' => $setting]);
}

// A value the tier wrote itself (set() on a host that allows every class) is checked the same way on a
// host that allows Quiet only.
echo "set() on a host with *, read by a host with Quiet:\n";
echo tier_run($r, CLASSES . <<<'PHP'
$q = new Quiet; $q->child = [1, 'two'];
$n = new Quiet; $n->child = new Loud;
var_dump(Table::set('w-quiet', $q, null, 'shared'), Table::setMany(['w-loud' => new Loud, 'w-nested' => [$n]], null, 'shared'));
PHP);
echo tier_run($r, CLASSES . <<<'PHP'
foreach (['w-quiet', 'w-loud', 'w-nested'] as $k) {
    try { $v = describe(Table::get($k, 'shared')); echo "  $k: $v\n"; }
    catch (Shm\TableException $e) { echo "  $k: ", $e->getMessage(), "\n"; }
}
try { Table::getMany(['w-quiet', 'w-loud'], 'shared'); } catch (Shm\TableException $e) { echo "  getMany: ", $e->getMessage(), "\n"; }
PHP, ['table.redis_allowed_classes' => 'Quiet']);

// Local namespaces are unaffected: their bytes come only from this host's PHP processes.
echo "a local namespace with none:\n";
echo tier_run($r, CLASSES . <<<'PHP'
$q = new Quiet; $q->child = new Loud;
Table::set('k', $q, null, 'local');
unset($q);
$v = describe(Table::get('k', 'local'));
echo "  $v\n";
PHP, ['table.redis_allowed_classes' => 'none', 'table.redis_namespaces' => 'shared']);
?>
--EXPECT--
bool(true)
table.redis_allowed_classes=*
  Loud:
    Loud::__wakeup() ran
    get: Loud
    Loud::__destruct() ran
    Loud::__wakeup() ran
    getMany: Loud
    Loud::__destruct() ran
  Quiet:
    get: Quiet
    getMany: Quiet
  Quiet holding Loud:
    Loud::__wakeup() ran
    get: Quiet(Loud)
    Loud::__destruct() ran
    Loud::__wakeup() ran
    getMany: Quiet(Loud)
    Loud::__destruct() ran
  an array holding Loud:
    Loud::__wakeup() ran
    get: ["x", [Loud]]
    Loud::__destruct() ran
    Loud::__wakeup() ran
    getMany: ["x", [Loud]]
    Loud::__destruct() ran
  Quiet holding a string that looks like Loud:
    get: Quiet("O:4:\"Loud\":1:{s:5:\"child\";N;}")
    getMany: Quiet("O:4:\"Loud\":1:{s:5:\"child\";N;}")
  Suit::Hearts (an enum case):
    get: Suit::Hearts
    getMany: Suit::Hearts
  stdClass:
    get: stdClass
    getMany: stdClass
  an undefined class:
    autoload(Missing) ran
    get: __PHP_Incomplete_Class
    autoload(Missing) ran
    getMany: __PHP_Incomplete_Class
  Loud, then bytes not in serialize() format:
    get: Shm\TableException: Shm\Table::get(): the stored value is corrupt (php unserialize failed)
    getMany: Shm\TableException: Shm\Table::getMany(): the stored value is corrupt (php unserialize failed)
  bytes not in serialize() format:
    get: Shm\TableException: Shm\Table::get(): the stored value is corrupt (php unserialize failed)
    getMany: Shm\TableException: Shm\Table::getMany(): the stored value is corrupt (php unserialize failed)
table.redis_allowed_classes=none
  Loud:
    get: Shm\TableException: Shm\Table::get(): the stored value cannot be read (it holds an object of class Loud, which is not in table.redis_allowed_classes)
    getMany: Shm\TableException: Shm\Table::getMany(): the stored value cannot be read (it holds an object of class Loud, which is not in table.redis_allowed_classes)
  Quiet:
    get: Shm\TableException: Shm\Table::get(): the stored value cannot be read (it holds an object of class Quiet, which is not in table.redis_allowed_classes)
    getMany: Shm\TableException: Shm\Table::getMany(): the stored value cannot be read (it holds an object of class Quiet, which is not in table.redis_allowed_classes)
  Quiet holding Loud:
    get: Shm\TableException: Shm\Table::get(): the stored value cannot be read (it holds an object of class Quiet, which is not in table.redis_allowed_classes)
    getMany: Shm\TableException: Shm\Table::getMany(): the stored value cannot be read (it holds an object of class Quiet, which is not in table.redis_allowed_classes)
  an array holding Loud:
    get: Shm\TableException: Shm\Table::get(): the stored value cannot be read (it holds an object of class Loud, which is not in table.redis_allowed_classes)
    getMany: Shm\TableException: Shm\Table::getMany(): the stored value cannot be read (it holds an object of class Loud, which is not in table.redis_allowed_classes)
  Quiet holding a string that looks like Loud:
    get: Shm\TableException: Shm\Table::get(): the stored value cannot be read (it holds an object of class Quiet, which is not in table.redis_allowed_classes)
    getMany: Shm\TableException: Shm\Table::getMany(): the stored value cannot be read (it holds an object of class Quiet, which is not in table.redis_allowed_classes)
  Suit::Hearts (an enum case):
    get: Shm\TableException: Shm\Table::get(): the stored value cannot be read (it holds an object of class Suit, which is not in table.redis_allowed_classes)
    getMany: Shm\TableException: Shm\Table::getMany(): the stored value cannot be read (it holds an object of class Suit, which is not in table.redis_allowed_classes)
  stdClass:
    get: Shm\TableException: Shm\Table::get(): the stored value cannot be read (it holds an object of class stdClass, which is not in table.redis_allowed_classes)
    getMany: Shm\TableException: Shm\Table::getMany(): the stored value cannot be read (it holds an object of class stdClass, which is not in table.redis_allowed_classes)
  an undefined class:
    get: Shm\TableException: Shm\Table::get(): the stored value cannot be read (it holds an object of class Missing, which is not in table.redis_allowed_classes)
    getMany: Shm\TableException: Shm\Table::getMany(): the stored value cannot be read (it holds an object of class Missing, which is not in table.redis_allowed_classes)
  Loud, then bytes not in serialize() format:
    get: Shm\TableException: Shm\Table::get(): the stored value cannot be read (it holds an object of class Loud, which is not in table.redis_allowed_classes)
    getMany: Shm\TableException: Shm\Table::getMany(): the stored value cannot be read (it holds an object of class Loud, which is not in table.redis_allowed_classes)
  bytes not in serialize() format:
    get: Shm\TableException: Shm\Table::get(): the stored value is corrupt (php unserialize failed)
    getMany: Shm\TableException: Shm\Table::getMany(): the stored value is corrupt (php unserialize failed)
table.redis_allowed_classes=
  Loud:
    get: Shm\TableException: Shm\Table::get(): the stored value cannot be read (it holds an object of class Loud, which is not in table.redis_allowed_classes)
    getMany: Shm\TableException: Shm\Table::getMany(): the stored value cannot be read (it holds an object of class Loud, which is not in table.redis_allowed_classes)
  Quiet:
    get: Shm\TableException: Shm\Table::get(): the stored value cannot be read (it holds an object of class Quiet, which is not in table.redis_allowed_classes)
    getMany: Shm\TableException: Shm\Table::getMany(): the stored value cannot be read (it holds an object of class Quiet, which is not in table.redis_allowed_classes)
  Quiet holding Loud:
    get: Shm\TableException: Shm\Table::get(): the stored value cannot be read (it holds an object of class Quiet, which is not in table.redis_allowed_classes)
    getMany: Shm\TableException: Shm\Table::getMany(): the stored value cannot be read (it holds an object of class Quiet, which is not in table.redis_allowed_classes)
  an array holding Loud:
    get: Shm\TableException: Shm\Table::get(): the stored value cannot be read (it holds an object of class Loud, which is not in table.redis_allowed_classes)
    getMany: Shm\TableException: Shm\Table::getMany(): the stored value cannot be read (it holds an object of class Loud, which is not in table.redis_allowed_classes)
  Quiet holding a string that looks like Loud:
    get: Shm\TableException: Shm\Table::get(): the stored value cannot be read (it holds an object of class Quiet, which is not in table.redis_allowed_classes)
    getMany: Shm\TableException: Shm\Table::getMany(): the stored value cannot be read (it holds an object of class Quiet, which is not in table.redis_allowed_classes)
  Suit::Hearts (an enum case):
    get: Shm\TableException: Shm\Table::get(): the stored value cannot be read (it holds an object of class Suit, which is not in table.redis_allowed_classes)
    getMany: Shm\TableException: Shm\Table::getMany(): the stored value cannot be read (it holds an object of class Suit, which is not in table.redis_allowed_classes)
  stdClass:
    get: Shm\TableException: Shm\Table::get(): the stored value cannot be read (it holds an object of class stdClass, which is not in table.redis_allowed_classes)
    getMany: Shm\TableException: Shm\Table::getMany(): the stored value cannot be read (it holds an object of class stdClass, which is not in table.redis_allowed_classes)
  an undefined class:
    get: Shm\TableException: Shm\Table::get(): the stored value cannot be read (it holds an object of class Missing, which is not in table.redis_allowed_classes)
    getMany: Shm\TableException: Shm\Table::getMany(): the stored value cannot be read (it holds an object of class Missing, which is not in table.redis_allowed_classes)
  Loud, then bytes not in serialize() format:
    get: Shm\TableException: Shm\Table::get(): the stored value cannot be read (it holds an object of class Loud, which is not in table.redis_allowed_classes)
    getMany: Shm\TableException: Shm\Table::getMany(): the stored value cannot be read (it holds an object of class Loud, which is not in table.redis_allowed_classes)
  bytes not in serialize() format:
    get: Shm\TableException: Shm\Table::get(): the stored value is corrupt (php unserialize failed)
    getMany: Shm\TableException: Shm\Table::getMany(): the stored value is corrupt (php unserialize failed)
table.redis_allowed_classes= quiet , Suit,App\Model\User 
  Loud:
    get: Shm\TableException: Shm\Table::get(): the stored value cannot be read (it holds an object of class Loud, which is not in table.redis_allowed_classes)
    getMany: Shm\TableException: Shm\Table::getMany(): the stored value cannot be read (it holds an object of class Loud, which is not in table.redis_allowed_classes)
  Quiet:
    get: Quiet
    getMany: Quiet
  Quiet holding Loud:
    get: Shm\TableException: Shm\Table::get(): the stored value cannot be read (it holds an object of class Loud, which is not in table.redis_allowed_classes)
    getMany: Shm\TableException: Shm\Table::getMany(): the stored value cannot be read (it holds an object of class Loud, which is not in table.redis_allowed_classes)
  an array holding Loud:
    get: Shm\TableException: Shm\Table::get(): the stored value cannot be read (it holds an object of class Loud, which is not in table.redis_allowed_classes)
    getMany: Shm\TableException: Shm\Table::getMany(): the stored value cannot be read (it holds an object of class Loud, which is not in table.redis_allowed_classes)
  Quiet holding a string that looks like Loud:
    get: Quiet("O:4:\"Loud\":1:{s:5:\"child\";N;}")
    getMany: Quiet("O:4:\"Loud\":1:{s:5:\"child\";N;}")
  Suit::Hearts (an enum case):
    get: Suit::Hearts
    getMany: Suit::Hearts
  stdClass:
    get: Shm\TableException: Shm\Table::get(): the stored value cannot be read (it holds an object of class stdClass, which is not in table.redis_allowed_classes)
    getMany: Shm\TableException: Shm\Table::getMany(): the stored value cannot be read (it holds an object of class stdClass, which is not in table.redis_allowed_classes)
  an undefined class:
    get: Shm\TableException: Shm\Table::get(): the stored value cannot be read (it holds an object of class Missing, which is not in table.redis_allowed_classes)
    getMany: Shm\TableException: Shm\Table::getMany(): the stored value cannot be read (it holds an object of class Missing, which is not in table.redis_allowed_classes)
  Loud, then bytes not in serialize() format:
    get: Shm\TableException: Shm\Table::get(): the stored value cannot be read (it holds an object of class Loud, which is not in table.redis_allowed_classes)
    getMany: Shm\TableException: Shm\Table::getMany(): the stored value cannot be read (it holds an object of class Loud, which is not in table.redis_allowed_classes)
  bytes not in serialize() format:
    get: Shm\TableException: Shm\Table::get(): the stored value is corrupt (php unserialize failed)
    getMany: Shm\TableException: Shm\Table::getMany(): the stored value is corrupt (php unserialize failed)
set() on a host with *, read by a host with Quiet:
    Loud::__destruct() ran
bool(true)
bool(true)
    Loud::__destruct() ran
  w-quiet: Quiet([1, "two"])
  w-loud: Shm\Table::get(): the stored value cannot be read (it holds an object of class Loud, which is not in table.redis_allowed_classes)
  w-nested: Shm\Table::get(): the stored value cannot be read (it holds an object of class Loud, which is not in table.redis_allowed_classes)
  getMany: Shm\Table::getMany(): the stored value cannot be read (it holds an object of class Loud, which is not in table.redis_allowed_classes)
a local namespace with none:
    Loud::__destruct() ran
    Loud::__wakeup() ran
    Loud::__destruct() ran
  Quiet(Loud)
