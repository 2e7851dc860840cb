--TEST--
Shm\Table: redis tier: table.redis_allowed_classes: an invalid list makes the table unavailable with a message naming the setting
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; require __DIR__ . '/tier.inc'; tier_skipif(); ?>
--FILE--
<?php
require __DIR__ . '/tier.inc';
$settings = ['Foo,,Bar', 'Foo,', ',Foo', '*,Foo', 'none,Foo', 'Foo Bar', '1Foo', 'Foo\\', 'Foo\\\\Bar', 'Foo-Bar',
    // Valid: blanks around names, a leading backslash, namespaces, NONE in any case (php.ini's parser
    // reads an unquoted none as empty, which means the same), a class named None.
    '*', 'none', 'NONE', '', ' Foo , \\App\\Model\\User,Ünïcode_Ok ', '\\None'];
foreach ($settings as $setting) {
    $code = 'try { Table::get("k", "local"); echo "available\n"; } catch (Shm\TableException $e) { echo $e->getMessage(), "\n"; }'
        . ' echo ini_get("table.redis_allowed_classes") === $argv[1] ? "" : "  (ini_get: " . var_export(ini_get("table.redis_allowed_classes"), true) . ")\n";';
    // No Redis is needed: the settings are checked when PHP starts, before any connection.
    $argv = tier_argv($code, ['table.redis' => 'unix:///nonexistent/redis.sock', 'table.redis_namespaces' => 'shared',
        'table.memory' => '8M', 'table.redis_allowed_classes' => $setting]);
    array_push($argv, '--', $setting);
    $p = proc_open($argv, [1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
    echo var_export($setting, true), ': ', stream_get_contents($pipes[1]), stream_get_contents($pipes[2]);
    proc_close($p);
}
// The default, and its place in ini_get_all(): PHP_INI_SYSTEM, like every table.redis_* setting.
$all = ini_get_all('table');
var_dump($all['table.redis_allowed_classes']['global_value'], $all['table.redis_allowed_classes']['access'] === INI_SYSTEM);
var_dump(ini_set('table.redis_allowed_classes', 'none'), ini_get('table.redis_allowed_classes'));
?>
--EXPECT--
'Foo,,Bar': Shm\Table is unavailable: table.redis_allowed_classes=Foo,,Bar has an empty name; use *, none, or class names separated by commas
'Foo,': Shm\Table is unavailable: table.redis_allowed_classes=Foo, has an empty name; use *, none, or class names separated by commas
',Foo': Shm\Table is unavailable: table.redis_allowed_classes=,Foo has an empty name; use *, none, or class names separated by commas
'*,Foo': Shm\Table is unavailable: table.redis_allowed_classes=*,Foo: "*" is not a class name; use * alone (any class), none, or class names separated by commas
'none,Foo': Shm\Table is unavailable: table.redis_allowed_classes=none,Foo: "none" is not a class name; use none alone (no class; \None names a class None), *, or class names separated by commas
'Foo Bar': Shm\Table is unavailable: table.redis_allowed_classes=Foo Bar: "Foo Bar" is not a class name; use *, none, or class names separated by commas
'1Foo': Shm\Table is unavailable: table.redis_allowed_classes=1Foo: "1Foo" is not a class name; use *, none, or class names separated by commas
'Foo\\': Shm\Table is unavailable: table.redis_allowed_classes=Foo\: "Foo\" is not a class name; use *, none, or class names separated by commas
'Foo\\\\Bar': Shm\Table is unavailable: table.redis_allowed_classes=Foo\\Bar: "Foo\\Bar" is not a class name; use *, none, or class names separated by commas
'Foo-Bar': Shm\Table is unavailable: table.redis_allowed_classes=Foo-Bar: "Foo-Bar" is not a class name; use *, none, or class names separated by commas
'*': available
'none': available
  (ini_get: '')
'NONE': available
  (ini_get: '')
'': available
' Foo , \\App\\Model\\User,Ünïcode_Ok ': available
'\\None': available
string(1) "*"
bool(true)
bool(false)
string(1) "*"
