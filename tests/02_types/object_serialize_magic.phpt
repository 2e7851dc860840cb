--TEST--
Shm\Table: types: __serialize/__unserialize are used for objects that define them
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

class Point {
    public static int $serialized = 0;
    public static int $unserialized = 0;
    public bool $restored = false;
    public int $x = 0;
    public int $y = 0;
    public mixed $cache = null;
    public function __construct(int $x, int $y, mixed $cache = null) {
        [$this->x, $this->y, $this->cache] = [$x, $y, $cache];
    }
    public function __serialize(): array {
        self::$serialized++;
        return ['xy' => [$this->x, $this->y]];
    }
    public function __unserialize(array $data): void {
        self::$unserialized++;
        [$this->x, $this->y] = $data['xy'];
        $this->restored = true;
    }
}

$p = new Point(3, -4, 'dropped by __serialize');
var_dump(Table::set('p', $p));
var_dump(Point::$serialized, Point::$unserialized);
$got = Table::get('p');
var_dump(Point::$unserialized);
var_dump(get_class($got), $got->x, $got->y, $got->cache, $got->restored);
// the object given to set() is not modified
var_dump($p->restored, $p->cache);
// nested inside an array
Table::set('arr', ['p' => new Point(1, 2), 'n' => 5]);
$a = Table::get('arr');
var_dump($a['p']->x, $a['p']->restored, $a['n']);
?>
--EXPECT--
bool(true)
int(1)
int(0)
int(1)
string(5) "Point"
int(3)
int(-4)
NULL
bool(true)
bool(false)
string(22) "dropped by __serialize"
int(1)
bool(true)
int(5)
