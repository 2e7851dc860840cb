--TEST--
Shm\Table: serializer: get() and set() inside unserialize() and serialize() (an __unserialize or __serialize calling the table) use a var hash of their own: back-references stay right (APCu's bug #76145)
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--INI--
table.serializer=php
error_reporting=E_ALL & ~E_DEPRECATED
--FILE--
<?php
use Shm\Table;

/* A value with back-references: the same object twice, and a PHP reference. */
$shared = new ArrayObject([1, 2]);
$a = ['x', 'y'];
$v = ['first' => $shared, 'second' => $shared, 'list' => ['p', 'q', 'r']];
$v['ref'] = &$v['list'];
Table::set('inner', $v);

class Outer
{
    public $got;
    public $more = ['m', 'n'];

    public function __serialize(): array
    {
        // set() while serialize() runs
        Table::set('from-serialize', ['same' => $this->more, 'again' => $this->more]);
        return ['more' => $this->more, 'more2' => $this->more];
    }

    public function __unserialize(array $data): void
    {
        // get() while unserialize() runs, after the enclosing value has numbered some entries
        $this->got = Table::get('inner');
        $this->more = $data['more'];
    }
}

/* Serializable::unserialize() runs while unserialize() parses, on its var hash (deprecated, still used). */
class Legacy implements Serializable
{
    public $got;

    public function serialize(): string
    {
        return 'x';
    }

    public function unserialize(string $data): void
    {
        $this->got = Table::get('inner');
    }
}

$legacy = unserialize(serialize([new ArrayObject(['a', 'b', 'c']), ['d', 'e'], new Legacy()]));
$got = $legacy[2]->got;
var_dump($got['first'] === $got['second'], $got['first']->getArrayCopy() === [1, 2], $got['list'] === ['p', 'q', 'r']);
$got['ref'][] = 's';
var_dump($got['list'] === ['p', 'q', 'r', 's']);

$outer = unserialize(serialize([new ArrayObject(['a', 'b', 'c']), new Outer(), 'tail']));
$got = $outer[1]->got;
var_dump($got['first'] === $got['second'], $got['first']->getArrayCopy() === [1, 2], $got['list'] === ['p', 'q', 'r']);
$got['ref'][] = 's';
var_dump($got['list'] === ['p', 'q', 'r', 's']);   // still a reference
var_dump(Table::get('from-serialize') === ['same' => ['m', 'n'], 'again' => ['m', 'n']]);
var_dump($outer[2], $outer[0]->getArrayCopy());
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
string(4) "tail"
array(3) {
  [0]=>
  string(1) "a"
  [1]=>
  string(1) "b"
  [2]=>
  string(1) "c"
}
