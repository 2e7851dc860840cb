--TEST--
Shm\Table: zero-copy: every array operation a script can do runs on a zero-copy array with the segment read-only
--ENV--
TABLE_TEST_HOOKS=1
--INI--
table.zero_copy=1
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

// The segment is made read-only (mprotect) around each block below: any write into it, the
// zero-copy array or its strings, faults and fails the test. Then the stored value is checked.
$rec = [
    'id' => 42, 'name' => 'Aachen', 'mass' => 21.5, 'fell' => true, 'none' => null,
    'tags' => ['stone', 'L5', 'ünïcödé'], 'geo' => ['lat' => 50.775, 'lon' => 6.083, 'deep' => [[], [1, 2], ['x' => 'y']]],
    7 => 'seven', 'class' => 'ArrayObject', 'text' => 'The quick brown fox',
];
$list = range(10, 1);
Table::set('rec', $rec);
Table::set('list', $list);

function zc(string $key): array
{
    $before = Table::stats()['zero_copy_reads'];
    $v = Table::get($key);
    if (Table::stats()['zero_copy_reads'] !== $before + 1) {
        throw new Exception("get('$key') was not a zero-copy read");
    }
    return $v;
}
function ro(bool $on): void
{
    if (!Shm\__table_test_protect($on)) {
        throw new Exception('mprotect failed');
    }
}

// The same operations run twice: on zero-copy arrays with the segment read-only, and on plain
// copies of the same values. They must give the same results.
function ops(array $a, array $l, array $rs, array $ls): array
{
    [$r1, $r2, $r3, $r4, $r5, $r6, $r7, $r8, $r9] = $rs;
    [$l1, $l2, $l3] = $ls;
    $out = [];
    // reading
    $out[] = count($a) . ' ' . count($a, COUNT_RECURSIVE) . ' ' . $a['name'] . ' ' . $a['geo']['deep'][1][1];
    $out[] = isset($a['none']) ? 'set' : 'unset';
    $out[] = array_key_exists('none', $a) && in_array('L5', $a['tags'], true) ? 'found' : 'missing';
    $out[] = implode(',', array_keys($a)) . ' ' . implode('|', $a['tags']);
    $out[] = strtoupper($a['name']) . strrev($a['text']) . $a['name'][0] . substr($a['text'], 4, 5);
    $out[] = preg_match('/ünï/u', $a['tags'][2]) . preg_replace('/o/u', '0', $a['text']) . str_replace('fox', 'cat', $a['text']);
    $out[] = json_encode($a);
    $out[] = serialize($a);
    $out[] = var_export($a, true);
    $out[] = print_r($a, true);
    ob_start(); var_dump($a); $out[] = ob_get_clean();
    $out[] = md5(serialize(unserialize(serialize($a))));
    // foreach by value, by reference, nested, with internal pointer functions
    foreach ($a as $k => $v) { $out[] = is_array($v) ? "$k:array" : "$k:" . var_export($v, true); }
    foreach ($a['tags'] as &$t) { $t = strtoupper($t); } unset($t);
    foreach ($a as $k => &$v) { if (is_string($v)) { $v .= '!'; } } unset($v);
    $out[] = current($l) . next($l) . next($l) . key($l) . reset($l) . end($l) . prev($l);
    // references into elements and nested elements
    $ref1 = &$a['geo']['lat'];
    $ref1 = 0.0;
    $ref2 = &$a['geo']['deep'][2]['x'];
    $ref2 .= 'z';
    unset($ref1, $ref2);
    $a['mass']++;
    $a['new'] = 1;
    $a[] = 'appended';
    unset($a['none'], $a['geo']['deep'][0]);
    $a['geo']['deep'][1][] = 3;
    // sorting and array functions
    sort($l); rsort($l); usort($l, fn($x, $y) => $x <=> $y); ksort($a); arsort($l); shuffle($l); sort($l);
    $out[] = implode(',', $l);
    array_walk($l, function (&$x) { $x *= 2; });
    array_walk_recursive($a, function (&$x) { if (is_int($x)) { $x = -$x; } });
    $out[] = implode(',', array_map(fn($x) => $x + 1, $l)) . ' ' . array_sum($l) . ' ' . count(array_filter($l, fn($x) => $x > 5));
    $m = array_merge($a, ['extra' => 1], $a['tags']);
    $m2 = $a + ['zz' => 2];
    $m3 = [...$l, ...$a['tags']];
    $m4 = array_replace_recursive($a, ['geo' => ['lon' => 1]]);
    array_push($l, 99); array_unshift($l, 0); array_pop($l); array_shift($l);
    array_splice($l, 2, 3, ['x', 'y']);
    $out[] = implode(',', array_slice($l, 1, 4)) . ' ' . implode(',', array_reverse($a['tags'])) . ' ' . count($m) . count($m2) . count($m3) . count($m4);
    $out[] = implode(',', array_column([$a['geo'], $a['geo']], 'lon')) . implode(',', array_unique([...$a['tags'], ...$a['tags']]));
    $out[] = implode(',', array_flip(array_flip($a['tags']))) . ' ' . implode(',', array_fill_keys($a['tags'], 0));
    extract($a['geo'], EXTR_PREFIX_ALL, 'g');
    $out[] = "$g_lon " . implode(',', array_keys(compact('g_lon', 'g_lat')));
    [$x0, $x1] = $l;
    ['name' => $nm] = $a;
    $out[] = "$x0 $x1 $nm";
    // objects wrapping the array
    $ao = new ArrayObject($r1);
    $ao['name'] = 'changed in ArrayObject';
    $ao->append('more');
    unset($ao['id']);
    $out[] = count($ao) . ' ' . implode(',', array_keys(iterator_to_array(new ArrayIterator($r2['tags']))));
    $out[] = json_encode(new ArrayObject($l1));
    $obj = (object) $r3;
    $obj->name = 'on an object';
    $out[] = $obj->name . ' ' . count(get_object_vars($obj));
    $gen = (function () use ($l2) { yield from $l2; })();
    $out[] = implode(',', iterator_to_array($gen, false));
    // strings taken out of the array
    $s = $r4['text'];
    $s[0] = 't';
    $s .= '.';
    $out[] = $s . ' ' . str_pad($r5['name'], 10, '*') . ' ' . sprintf('%s', $r5['name']);
    $keys = array_keys($r6);
    $keys[0] .= '_';
    $out[] = $keys[0];
    $cls = $r7['class'];
    $out[] = get_class(new $cls([]));
    // copies kept around, then the garbage collector
    $keep = [$r8, $r9['geo'], $l3];
    $keep[0]['geo']['deep'][] = $keep;
    gc_collect_cycles();
    return [$out, $a, $l, $ao->getArrayCopy(), $keep];
}

$expected = ops($rec, $list, array_fill(0, 9, $rec), array_fill(0, 3, $list));

// No table call may run while the segment is read-only: every zero-copy array is fetched first.
$a = zc('rec');
$l = zc('list');
$rs = array_map('zc', array_fill(0, 9, 'rec'));
$ls = array_map('zc', array_fill(0, 3, 'list'));
ro(true);
$got = ops($a, $l, $rs, $ls);
ro(false);

echo count($got[0]), " results\n";
var_dump($got == $expected, serialize($got) === serialize($expected));
var_dump(Table::get('rec') === $rec, Table::get('list') === $list);
var_dump($got[1]['name'], $got[1]['geo']['lat'], $got[1]['geo']['deep'][2]['x'], $got[3]['name']);
$s = Table::stats();
var_dump($s['pins'] >= 1, $s['zero_copy_reads'] >= 14);
?>
--EXPECT--
37 results
bool(true)
bool(true)
bool(true)
bool(true)
string(7) "Aachen!"
float(0)
string(2) "yz"
string(22) "changed in ArrayObject"
bool(true)
bool(true)
