--TEST--
Shm\Table: named segment: a file removed (rm) or replaced under a running server is noticed at its next request, which joins the table new processes use
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; if (!function_exists('proc_open')) die('skip needs proc_open'); ?>
--FILE--
<?php
/* Issue 33, finding 6. A long-running process of many requests (php -S: the built-in web server, one
 * process) attached to php-table.srv; the file is removed, and another process makes a new one at the
 * path. Before, the server kept the unlinked table for life: its get() answered the old value, and what
 * it wrote nobody else saw. Now, at its first request at least a second after it last looked, it lets
 * the old table go and attaches to the new one. */
require __DIR__ . '/segments.inc';
$dir = seg_dir();
$doc = "$dir/www";
mkdir($doc);
file_put_contents("$doc/kv.php", '<?php use Shm\Table;
    if (($_GET["op"] ?? "") === "set") { Table::set("k", $_GET["v"]); }
    $st = Table::stats();
    echo json_encode(["pid" => getmypid(), "k" => Table::get("k"), "path" => basename($st["segment_path"]),
        "created" => $st["segment_created"]]);');
$sock = stream_socket_server('tcp://127.0.0.1:0');
$port = (int) substr(strrchr(stream_socket_get_name($sock, false), ':'), 1);
fclose($sock);
$argv = [PHP_BINARY, '-n'];
if (extension_loaded('igbinary')) {
    array_push($argv, '-d', 'extension=igbinary');
}
array_push($argv, '-d', 'extension=' . seg_ext(), '-d', 'table.segment=srv', '-d', "table.segment_dir=$dir",
    '-d', 'table.memory=2M', '-S', "127.0.0.1:$port", '-t', $doc);
$srv = proc_open($argv, [0 => ['file', '/dev/null', 'r'], 1 => ['file', "$dir/server.log", 'a'],
    2 => ['file', "$dir/server.log", 'a']], $pipes);
$pid = proc_get_status($srv)['pid'];
$get = function (string $q) use ($port) {
    return json_decode((string) @file_get_contents("http://127.0.0.1:$port/kv.php?$q"), true);
};
$deadline = microtime(true) + 30;
while (!($r = $get('op=get')) && microtime(true) < $deadline) {
    usleep(50000);
}
$file = "$dir/php-table.srv";
$old_mapped = function () use ($pid, $file) {   // the server still maps a file of that name that was removed
    return (bool) preg_match('~' . preg_quote($file, '~') . ' \(deleted\)$~m', (string) @file_get_contents("/proc/$pid/maps"));
};
$show = function (string $what, $r) {
    echo $what, ': ', $r ? json_encode([$r['k'], $r['path'], $r['created']]) : 'no answer', "\n";
};

$show('first request (creates it)', $r);
$show('set one', $get('op=set&v=one'));
$ino = fileinode($file);
usleep(1100000);   // the server looks at most once a second

// 1. rm, and nobody makes a new one: the server's next request makes it.
unlink($file);
$show('after rm', $r = $get('op=get'));
var_dump(is_file($file), fileinode($file) !== $ino, $old_mapped());
echo seg_run($dir, 'srv', 'echo json_encode(Table::get("k")), "\n"; Table::set("k", "from cli");');
$show('cli wrote', $get('op=get'));
usleep(1100000);

// 2. rm, and another process makes a new file first: the server joins it.
unlink($file);
echo seg_run($dir, 'srv', 'var_dump(Table::stats()["segment_created"]); Table::set("k", "two");');
$show('after rm + new file', $r = $get('op=get'));
var_dump($r['pid'] === $pid, $old_mapped());
$show('set three', $get('op=set&v=three'));
echo seg_run($dir, 'srv', 'echo json_encode(Table::get("k")), "\n";');

proc_terminate($srv);
proc_close($srv);
?>
--EXPECT--
first request (creates it): [null,"php-table.srv",true]
set one: ["one","php-table.srv",true]
after rm: [null,"php-table.srv",true]
bool(true)
bool(true)
bool(false)
null
cli wrote: ["from cli","php-table.srv",true]
bool(true)
after rm + new file: ["two","php-table.srv",false]
bool(true)
bool(false)
set three: ["three","php-table.srv",false]
"three"
