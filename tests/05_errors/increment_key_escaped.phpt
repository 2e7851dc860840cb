--TEST--
Shm\Table: errors: increment()'s "not an integer" message escapes the key (quotes, backslashes, NUL and other bytes) and caps it at 64 bytes
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

$keys = [
    'quote"and\\backslash',
    "nul\0byte\nnewline\xff",
    str_repeat('k', 64),
    str_repeat('x', 65535),
    str_repeat('"', 40),
];
foreach ($keys as $key) {
    Table::set($key, 'not an int');
    try {
        Table::increment($key);
    } catch (Shm\TableException $e) {
        $m = $e->getMessage();
        echo strlen($m) < 300 ? $m : 'TOO LONG: ' . strlen($m), "\n";
    }
}
try {
    Table::decrement("tab\tkey");
    Table::set("tab\tkey", [1]);
    Table::decrement("tab\tkey");
} catch (Shm\TableException $e) {
    echo $e->getMessage(), "\n";
}
?>
--EXPECT--
Shm\Table::increment(): the value of key "quote\"and\\backslash" is not an integer
Shm\Table::increment(): the value of key "nul\x00byte\x0anewline\xff" is not an integer
Shm\Table::increment(): the value of key "kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk" is not an integer
Shm\Table::increment(): the value of key "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx..." is not an integer
Shm\Table::increment(): the value of key "\"\"\"\"\"\"\"\"\"\"\"\"\"\"\"\"\"\"\"\"\"\"\"\"\"\"\"\"\"\"\"\"\"\"\"\"\"\"\"\"" is not an integer
Shm\Table::decrement(): the value of key "tab\x09key" is not an integer
