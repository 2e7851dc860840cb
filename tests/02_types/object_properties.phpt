--TEST--
Shm\Table: types: private, protected, typed, readonly and dynamic properties survive
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

#[AllowDynamicProperties]
class Base {
    private $basePrivate = 'base private';
    public function basePrivate() { return $this->basePrivate; }
}
#[AllowDynamicProperties]
class Entity extends Base {
    public int $id = 0;
    protected ?string $name = null;
    private array $tags = [];
    public function __construct(public readonly string $code, int $id, string $name, array $tags) {
        $this->id = $id;
        $this->name = $name;
        $this->tags = $tags;
    }
    public function dump() { return [$this->code, $this->id, $this->name, $this->tags, $this->basePrivate()]; }
}
$e = new Entity('E-1', 42, 'answer', ['a', 'b']);
$e->dynamic = 'dyn';
Table::set('e', $e);
$got = Table::get('e');
var_dump($got == $e);
var_dump($got->dump(), $got->dynamic);
try {
    $got->code = 'changed';
} catch (Error $err) {
    echo get_class($err), ': ', $err->getMessage(), "\n";
}
?>
--EXPECT--
bool(true)
array(5) {
  [0]=>
  string(3) "E-1"
  [1]=>
  int(42)
  [2]=>
  string(6) "answer"
  [3]=>
  array(2) {
    [0]=>
    string(1) "a"
    [1]=>
    string(1) "b"
  }
  [4]=>
  string(12) "base private"
}
string(3) "dyn"
Error: Cannot modify readonly property Entity::$code
