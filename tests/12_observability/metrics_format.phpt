--TEST--
Shm\Table: observability: metrics() is well-formed Prometheus text, with binary namespace names labelled safely
--INI--
table.memory=16M
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;
require __DIR__ . '/observability.inc';

$names = ['plain', 'quote"back\\slash', "new\nline", "bin\x00\xff", "caf\u{e9}", "\xc3", 'default', '123'];
foreach ($names as $i => $ns) {
    Table::set("k$i", str_repeat('v', $i + 1), null, $ns);
}
Table::set('d', 1);
$text = Table::metrics();
$p = obs_parse($text);
var_dump($p['errors']);
var_dump(is_string($text), str_contains($text, "\r"));

// every metric has a HELP and a TYPE line, in that order, and exactly one of each
preg_match_all('/^# (HELP|TYPE) (\S+)/m', $text, $m, PREG_SET_ORDER);
$seen = [];
foreach ($m as [, $kind, $name]) {
    $seen[$name][] = $kind;
}
$badHead = array_filter($seen, fn($k) => $k !== ['HELP', 'TYPE']);
var_dump($badHead);

// the counters and the gauges the issue asks for
foreach (['hits_total', 'misses_total', 'sets_total', 'evictions_total', 'oom_total', 'expirations_total',
    'lock_repairs_total', 'lock_timeouts_total', 'gc_runs_total', 'zero_copy_reads_total', 'copied_reads_total'] as $c) {
    if (($p['types']["table_$c"] ?? null) !== 'counter') echo "missing counter table_$c\n";
}
foreach (['memory_used_bytes', 'memory_free_bytes', 'memory_largest_free_bytes', 'memory_retired_bytes',
    'entries', 'processes_attached', 'slots', 'pins', 'namespace_entries', 'namespace_bytes', 'info'] as $g) {
    if (($p['types']["table_$g"] ?? null) !== 'gauge') echo "missing gauge table_$g\n";
}

// namespaces: UTF-8 without control characters as namespace="...", anything else as namespace_hex
$labels = array_map(fn($s) => $s['labels'], array_values($p['samples']['table_namespace_entries']));
usort($labels, fn($a, $b) => strcmp(json_encode($a), json_encode($b)));
foreach ($labels as $l) {
    echo key($l), '=', json_encode(current($l)), "\n";
}
$byNs = obs_by_namespace($p, 'table_namespace_entries');
ksort($byNs);
var_dump(array_sum($byNs), count($byNs));
foreach ($names as $ns) {
    if (($byNs[$ns] ?? 0) !== 1) echo 'namespace ', bin2hex($ns), " not counted once\n";
}
echo preg_match('/^table_namespace_entries\{namespace="quote\\\\"back\\\\\\\\slash"\} 1$/m', $text), "\n";
echo preg_match('/^table_info\{version="[0-9.]+[^"]*",eviction_policy="gdsf",serializer="php",segment="",segment_path=""\} 1$/m', $text), "\n";

// an emptied namespace disappears, as from stats()['namespaces']
Table::clear('plain');
var_dump(str_contains(Table::metrics(), 'namespace="plain"'));
?>
--EXPECT--
array(0) {
}
bool(true)
bool(false)
array(0) {
}
namespace=""
namespace="123"
namespace="caf\u00e9"
namespace="default"
namespace="plain"
namespace="quote\"back\\slash"
namespace_hex="62696e00ff"
namespace_hex="6e65770a6c696e65"
namespace_hex="c3"
int(9)
int(9)
1
1
bool(false)
