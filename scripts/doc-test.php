<?php
/*
 * scripts/doc-test.php - the docs' own test: every relative link and anchor resolves, and every example
 * marked runnable runs. Called by scripts/doc-test.sh, which says how; run by any PHP (it only reads the
 * Markdown and starts the examples with the PHP and table.so it is given).
 *
 *   php scripts/doc-test.php --so TABLE_SO --php PHP [FILE.md ...]    (default: the files of DOC_FILES)
 *
 * Links: in every file checked, each [text](target) and [ref]: target outside code whose target is not a
 * URL must name a file or directory of the tree; a #anchor must be a heading of the target Markdown file
 * (GitHub's slugs: lower case, punctuation but - and _ dropped, spaces to -, repeats numbered -1, -2...)
 * or an <a id>/<a name> in it.
 *
 * Examples: a fenced block right after a line `<!-- doctest -->` runs. ```php blocks (a leading `<?php`
 * is added when missing) run as `PHP -n -d extension=TABLE_SO FILE`; ```sh, ```bash and ```shell blocks
 * run with bash -e, where `php` is that same PHP with that table.so. Each runs in a directory of its own,
 * which is also its table.segment_dir, with a 60 s limit. It passes when it exits 0 and writes nothing to
 * stderr (PHP's warnings and notices go there: display_errors=stderr, error_reporting=-1); when the next
 * fenced block follows a line `<!-- doctest-output -->`, its stdout must also be that block's text.
 * `<!-- doctest: ARGS -->` instead of `<!-- doctest -->` adds php options (a php block) or environment
 * variables (a shell block, NAME=VALUE ...).
 *
 * Output: `ok`/`not ok` lines, then `docs: N passed, N failed`. Exit status 1 when anything failed.
 */

const DOC_FILES = ['README.md', 'CONTRIBUTING.md', 'docs/*.md', 'php/README.md', 'php/wordpress/README.md',
    'status/README.md', 'benchmarks/README.md'];

$root = dirname(__DIR__);
$opts = ['so' => null, 'php' => PHP_BINARY];
$files = [];
for ($i = 1; $i < $argc; $i++) {
    if (in_array($argv[$i], ['--so', '--php'], true) && isset($argv[$i + 1])) {
        $opts[substr($argv[$i], 2)] = $argv[++$i];
    } else {
        $files[] = $argv[$i];
    }
}
if ($opts['so'] !== null && ($real = realpath($opts['so'])) !== false) {
    $opts['so'] = $real;
}
if (!$files) {
    foreach (DOC_FILES as $pattern) {
        foreach (glob("$root/$pattern") ?: [] as $f) {
            $files[] = substr($f, strlen($root) + 1);
        }
    }
}

$passed = $failed = 0;
function result(bool $ok, string $what, string $detail = ''): void
{
    global $passed, $failed;
    $ok ? $passed++ : $failed++;
    echo $ok ? 'ok     ' : 'not ok ', $what, $ok || $detail === '' ? '' : "\n       " . str_replace("\n", "\n       ", rtrim($detail)), "\n";
}

/* The lines of a Markdown file, each with whether it is inside a fenced block. */
function md_lines(string $text): array
{
    $out = [];
    $fence = null;
    foreach (preg_split('/\R/', $text) as $n => $line) {
        if ($fence === null && preg_match('/^\s{0,3}(`{3,}|~{3,})/', $line, $m)) {
            $fence = $m[1];
            $out[] = [$n + 1, $line, 'open'];
        } elseif ($fence !== null && preg_match('/^\s{0,3}' . preg_quote($fence[0], '/') . '{' . strlen($fence) . ',}\s*$/', $line)) {
            $fence = null;
            $out[] = [$n + 1, $line, 'close'];
        } else {
            $out[] = [$n + 1, $line, $fence === null ? 'text' : 'code'];
        }
    }
    return $out;
}

function slug(string $heading): string
{
    $h = preg_replace('/<[^>]+>/', '', $heading);
    $h = preg_replace('/\[([^\]]*)\]\([^)]*\)/', '$1', $h);   // a link: its text
    $h = function_exists('mb_strtolower') ? mb_strtolower(trim($h)) : strtolower(trim($h));
    $h = preg_replace('/[^\p{L}\p{N}\s_-]/u', '', $h);
    return preg_replace('/\s/', '-', $h);
}

/* Every anchor a Markdown file has: its headings' slugs (repeats numbered) and its <a id|name>. */
function anchors(string $file): array
{
    static $cache = [];
    if (isset($cache[$file])) {
        return $cache[$file];
    }
    $seen = [];
    $all = [];
    foreach (md_lines((string) file_get_contents($file)) as [, $line, $kind]) {
        if ($kind !== 'text') {
            continue;
        }
        if (preg_match('/^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/', $line, $m)) {
            $s = slug($m[1]);
            $all[isset($seen[$s]) ? $s . '-' . $seen[$s] : $s] = true;
            $seen[$s] = ($seen[$s] ?? 0) + 1;
        }
        if (preg_match_all('/<a\s+(?:id|name)="([^"]+)"/', $line, $m)) {
            foreach ($m[1] as $a) {
                $all[$a] = true;
            }
        }
    }
    return $cache[$file] = $all;
}

function check_links(string $root, string $rel): void
{
    $bad = [];
    $count = 0;
    $dir = dirname("$root/$rel");
    foreach (md_lines((string) file_get_contents("$root/$rel")) as [$n, $line, $kind]) {
        if ($kind !== 'text') {
            continue;
        }
        $line = preg_replace('/`[^`]*`/', '', $line);   // inline code is not a link
        preg_match_all('/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/', $line, $m);
        $targets = $m[1];
        if (preg_match('/^\s{0,3}\[[^\]]+\]:\s+(\S+)/', $line, $r)) {
            $targets[] = $r[1];
        }
        foreach ($targets as $t) {
            if (preg_match('#^[a-z][a-z0-9+.-]*:#i', $t)) {
                continue;   // http:, https:, mailto:
            }
            $count++;
            [$path, $anchor] = array_pad(explode('#', $t, 2), 2, null);
            $target = $path === '' ? "$root/$rel" : $dir . '/' . rawurldecode($path);
            if (!file_exists($target)) {
                $bad[] = "$rel:$n: $t: no such file";
            } elseif ($anchor !== null && $anchor !== '' && str_ends_with($target, '.md')
                && !isset(anchors($target)[rawurldecode($anchor)])) {
                $bad[] = "$rel:$n: $t: no such anchor in " . substr(realpath($target), strlen(realpath($root)) + 1);
            }
        }
    }
    result(!$bad, "$rel: its $count relative links and anchors resolve", implode("\n", $bad));
}

/* Runnable examples of a file: [line, lang, code, extra args, expected stdout or null]. */
function examples(string $text): array
{
    $lines = md_lines($text);
    $out = [];
    $pending = null;      // the marker's args, for the next fence
    $want_output = false; // the next fence is the previous example's output
    $cur = null;
    foreach ($lines as [$n, $line, $kind]) {
        if ($kind === 'text') {
            if (preg_match('/^<!--\s*doctest(?::\s*(.*?))?\s*-->\s*$/', $line, $m)) {
                $pending = $m[1] ?? '';
            } elseif (preg_match('/^<!--\s*doctest-output\s*-->\s*$/', $line)) {
                $want_output = true;
            } elseif (trim($line) !== '') {
                $pending = null;
                $want_output = false;
            }
            continue;
        }
        if ($kind === 'open') {
            $lang = strtolower(trim(preg_replace('/^\s*[`~]+/', '', $line)));
            $cur = ['line' => $n, 'lang' => strtok($lang, " \t") ?: '', 'code' => [], 'args' => $pending,
                'output' => $want_output];
            $pending = null;
            $want_output = false;
            continue;
        }
        if ($kind === 'code') {
            $cur['code'][] = $line;
            continue;
        }
        // close
        $code = implode("\n", $cur['code']) . "\n";
        if ($cur['output'] && $out && $out[count($out) - 1][4] === null) {
            $out[count($out) - 1][4] = $code;
        } elseif ($cur['args'] !== null) {
            $out[] = [$cur['line'], $cur['lang'], $code, $cur['args'], null];
        }
        $cur = null;
    }
    return $out;
}

function run_example(array $opts, string $dir, array $ex): array
{
    [, $lang, $code, $args] = $ex;
    static $needs_igbinary = null;
    $php = [$opts['php'], '-n'];
    if ($needs_igbinary === null) {
        // A table.so built with --enable-table-igbinary loads only after igbinary.
        exec(implode(' ', array_map('escapeshellarg', [$opts['php'], '-n', '-d', 'extension=' . $opts['so'], '-r', '']))
            . ' 2>&1', $probe);
        $needs_igbinary = str_contains(implode("\n", $probe), 'igbinary');
    }
    if ($needs_igbinary) {
        array_push($php, '-d', 'extension=igbinary');
    }
    array_push($php, '-d', 'extension=' . $opts['so'], '-d', 'display_errors=stderr', '-d', 'error_reporting=-1',
        '-d', 'log_errors=0', '-d', "table.segment_dir=$dir");
    $env = getenv();
    if ($lang === 'php') {
        if (!preg_match('/^\s*<\?php/', $code)) {
            $code = "<?php\n" . $code;
        }
        file_put_contents("$dir/example.php", $code);
        $cmd = array_merge($php, $args === '' ? [] : preg_split('/\s+/', trim($args)), ["$dir/example.php"]);
    } elseif (in_array($lang, ['sh', 'bash', 'shell', 'console'], true)) {
        mkdir("$dir/bin");
        file_put_contents("$dir/bin/php", "#!/bin/sh\nexec " . implode(' ', array_map('escapeshellarg', $php)) . " \"\$@\"\n");
        chmod("$dir/bin/php", 0755);
        file_put_contents("$dir/example.sh", $code);
        $env['PATH'] = "$dir/bin:" . ($env['PATH'] ?? '/usr/bin:/bin');
        foreach ($args === '' ? [] : preg_split('/\s+/', trim($args)) as $kv) {
            [$k, $v] = array_pad(explode('=', $kv, 2), 2, '');
            $env[$k] = $v;
        }
        $cmd = ['timeout', '60', 'bash', '-e', "$dir/example.sh"];
    } else {
        return [false, '', "a runnable example must be php, sh or bash, not '$lang'"];
    }
    if ($lang === 'php') {
        array_unshift($cmd, 'timeout', '60');
    }
    $p = proc_open($cmd, [0 => ['file', '/dev/null', 'r'], 1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes, $dir, $env);
    $stdout = stream_get_contents($pipes[1]);
    $stderr = stream_get_contents($pipes[2]);
    fclose($pipes[1]);
    fclose($pipes[2]);
    $rc = proc_close($p);
    return [$rc === 0 && $stderr === '', $stdout, "exit $rc" . ($stderr !== '' ? "; stderr:\n$stderr" : '')];
}

function rmtree(string $dir): void
{
    foreach (scandir($dir) ?: [] as $f) {
        if ($f !== '.' && $f !== '..') {
            is_dir("$dir/$f") && !is_link("$dir/$f") ? rmtree("$dir/$f") : unlink("$dir/$f");
        }
    }
    rmdir($dir);
}

$total_examples = 0;
foreach ($files as $rel) {
    if (!is_file("$root/$rel")) {
        result(false, "$rel: no such file");
        continue;
    }
    check_links($root, $rel);
    $text = (string) file_get_contents("$root/$rel");
    foreach (examples($text) as $ex) {
        $total_examples++;
        $what = "$rel:{$ex[0]}: the {$ex[1]} example runs" . ($ex[4] !== null ? ' and prints what the text shows' : '');
        if ($opts['so'] === null || !is_file($opts['so'])) {
            result(false, $what, 'no table.so to run it with (--so)');
            continue;
        }
        $dir = sys_get_temp_dir() . '/table-doctest-' . getmypid() . '-' . bin2hex(random_bytes(4));
        mkdir($dir, 0700);
        [$ok, $stdout, $detail] = run_example($opts, $dir, $ex);
        if ($ok && $ex[4] !== null && rtrim($stdout) !== rtrim($ex[4])) {
            $ok = false;
            $detail = "printed:\n$stdout\nthe text shows:\n{$ex[4]}";
        }
        result($ok, $what, $detail . ($ok ? '' : "\n" . $ex[2]));
        rmtree($dir);
    }
}
echo "($total_examples runnable examples in " . count($files) . " files)\n";
echo "docs: $passed passed, $failed failed\n";
exit($failed ? 1 : 0);
