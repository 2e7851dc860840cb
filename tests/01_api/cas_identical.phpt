--TEST--
Shm\Table: cas: arrays compare exactly like === ([0.0]/[-0.0], [NAN], packed arrays with holes, references, order), in copy and zero-copy mode
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;
require __DIR__ . '/../helpers.inc';

/* Each case: what is stored, what cas() expects, and what === says. cas() must agree with ===. */
$holes = [0 => 'a', 1 => 'b', 2 => 'c'];
unset($holes[1]);                       /* a packed array with a hole */
$x = 1;
$withRef = [&$x, 2];                    /* a reference shared with $x: stored by the serializer */
$nested = ['a' => [0.0, ['b' => -0.0]], 'n' => null];
$cases = [
    '[0.0] vs [-0.0]' => [[0.0], [-0.0]],
    '[-0.0] vs [0.0]' => [[-0.0], [0.0]],
    '[NAN] vs [NAN]' => [[NAN], [NAN]],
    'nested zeros' => [$nested, ['a' => [-0.0, ['b' => 0.0]], 'n' => null]],
    'packed with a hole vs the same pairs' => [$holes, [0 => 'a', 2 => 'c']],
    'packed with a hole vs a list' => [$holes, ['a', 'c']],
    'same pairs, other order' => [['a' => 1, 'b' => 2], ['b' => 2, 'a' => 1]],
    'int vs float element' => [[1], [1.0]],
    '"1" vs 1 element' => [['1'], [1]],
    'string key "1" is int key 1' => [['1' => 'v'], [1 => 'v']],
    'stored with a reference vs plain' => [$withRef, [1, 2]],
    'plain vs expected with a reference' => [[1, 2], $withRef],
    'stored with a reference vs other' => [$withRef, [1, 3]],
    'empty vs empty' => [[], []],
    'empty vs [null]' => [[], [null]],
    '600 levels vs the same' => [table_nested(600, 0.0), table_nested(600, -0.0)],
    '600 levels vs a different leaf' => [table_nested(600, 1), table_nested(600, 2)],
];
foreach ($cases as $name => [$stored, $expected]) {
    Table::set('k', $stored);
    $same = $stored === $expected;
    $swapped = Table::cas('k', $expected, 'swapped');
    $now = Table::get('k');
    printf("%-40s === %-5s cas %-5s %s\n", $name, var_export($same, true), var_export($swapped, true),
        $swapped === ($now === 'swapped') ? 'consistent' : 'INCONSISTENT');
}
/* Missing key, and an array expected where a scalar is stored. */
Table::delete('k');
var_dump(Table::cas('k', [1], 'x'), Table::exists('k'));
Table::set('k', 1);
var_dump(Table::cas('k', [1], 'x'), Table::get('k'));
/* The expiry stays, as for scalars. */
Table::set('t', [0.0], 100);
var_dump(Table::cas('t', [-0.0], [1]), Table::get('t'), Table::ttl('t') > 90);
/* Objects compare by their serialized form (=== on objects is identity, which nothing read back shares). */
$o = new ArrayObject([1]);
Table::set('o', ['obj' => $o]);
var_dump(Table::cas('o', ['obj' => new ArrayObject([1])], 'swapped'), Table::get('o'));
Table::set('o', ['obj' => $o]);
var_dump(Table::cas('o', ['obj' => new ArrayObject([2])], 'swapped'));
?>
--EXPECT--
[0.0] vs [-0.0]                          === true  cas true  consistent
[-0.0] vs [0.0]                          === true  cas true  consistent
[NAN] vs [NAN]                           === false cas false consistent
nested zeros                             === true  cas true  consistent
packed with a hole vs the same pairs     === true  cas true  consistent
packed with a hole vs a list             === false cas false consistent
same pairs, other order                  === false cas false consistent
int vs float element                     === false cas false consistent
"1" vs 1 element                         === false cas false consistent
string key "1" is int key 1              === true  cas true  consistent
stored with a reference vs plain         === true  cas true  consistent
plain vs expected with a reference       === true  cas true  consistent
stored with a reference vs other         === false cas false consistent
empty vs empty                           === true  cas true  consistent
empty vs [null]                          === false cas false consistent
600 levels vs the same                   === true  cas true  consistent
600 levels vs a different leaf           === false cas false consistent
bool(false)
bool(false)
bool(false)
int(1)
bool(true)
array(1) {
  [0]=>
  int(1)
}
bool(true)
bool(true)
string(7) "swapped"
bool(false)
