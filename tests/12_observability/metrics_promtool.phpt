--TEST--
Shm\Table: observability: metrics() passes `promtool check metrics` (Prometheus's own parser and linter)
--INI--
table.memory=16M
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc';
if (!trim((string) shell_exec('command -v promtool 2>/dev/null'))) die('skip promtool not installed (Debian: apt-get install prometheus)');
// valgrind --trace-children would check promtool itself, a Go program, and report its runtime
table_skip_if_valgrind('promtool is a Go program');
?>
--FILE--
<?php
use Shm\Table;

function promtool(string $text): string
{
    $p = proc_open(['promtool', 'check', 'metrics'], [0 => ['pipe', 'r'], 1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
    fwrite($pipes[0], $text);
    fclose($pipes[0]);
    $out = stream_get_contents($pipes[1]) . stream_get_contents($pipes[2]);
    $rc = proc_close($p);
    return "exit $rc" . ($out === '' ? '' : ": $out");
}

echo 'empty table: ', promtool(Table::metrics()), "\n";
foreach (['plain', 'quote"back\\slash', "new\nline", "bin\x00\xff", "caf\u{e9}", "\xc3", "tab\there", str_repeat('n', 255)] as $i => $ns) {
    Table::set("k$i", [$i, "v$i"], $i ? 60 : null, $ns);
}
Table::get('k0', 'plain');
Table::get('missing');
echo 'with binary namespaces: ', promtool(Table::metrics()), "\n";
?>
--EXPECT--
empty table: exit 0
with binary namespaces: exit 0
