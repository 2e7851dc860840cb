--TEST--
Shm\Table: named segment: metrics() names the segment and its file in table_info, escaped or in hex where the path needs it
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; if (!function_exists('proc_open')) die('skip needs proc_open'); ?>
--FILE--
<?php
require __DIR__ . '/segments.inc';
$dir = seg_dir();
$info = 'preg_match("/^table_info\{.*\} 1$/m", Table::metrics(), $m); echo $m[0], "\n";';
// a directory whose name needs escaping (a backslash; an INI value given with -d cannot hold a quote),
// and one that is not UTF-8
$odd = "$dir/back\\slash";
$bin = "$dir/\xff";
mkdir($odd, 0700);
mkdir($bin, 0700);
$plain = seg_run($dir, 'app', $info);
$quoted = seg_run($dir, 'app', $info, ['table.segment_dir' => $odd]);
$hex = seg_run($dir, 'app', $info, ['table.segment_dir' => $bin]);
var_dump(str_ends_with(rtrim($plain), ',segment="app",segment_path="' . $dir . '/php-table.app"} 1'));
var_dump(str_ends_with(rtrim($quoted), ',segment="app",segment_path="' . addcslashes("$odd/php-table.app", '"\\') . '"} 1'));
var_dump(str_ends_with(rtrim($hex), ',segment="app",segment_path_hex="' . bin2hex("$bin/php-table.app") . '"} 1'));
// the same line passes Prometheus's rules for label values: no raw quote or newline inside
foreach ([$plain, $quoted, $hex] as $line) {
    var_dump((bool) preg_match('/^table_info\{(?:[a-z_]+="(?:[^"\\\\\n]|\\\\["\\\\n])*",?)+\} 1$/', rtrim($line)));
}
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
