--TEST--
Shm\Table: errors: running out of namespaces throws the documented TableException, never anything else
--INI--
table.memory=2M
table.eviction_policy=noeviction
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

// Create namespaces until either the namespace table or the memory is full (or 70,000 were made).
$created = 0;
$outcome = 'no limit reached';
for ($i = 0; $i < 70000; $i++) {
    try {
        if (!Table::set('k', $i, null, "ns$i")) {
            $outcome = 'out of memory';
            break;
        }
        $created++;
    } catch (Shm\TableException $e) {
        $outcome = preg_match('/^Shm\\\\Table::set\(\): too many namespaces \(at most \d+, and none of them is empty\)$/', $e->getMessage())
            ? 'namespace limit' : 'unexpected message: ' . $e->getMessage();
        break;
    }
}
echo str_starts_with($outcome, 'unexpected') ? $outcome : 'ok', "\n";
// everything created so far is intact, and the default namespace still works
$bad = 0;
for ($i = 0; $i < $created; $i++) {
    if (Table::get('k', "ns$i") !== $i) {
        $bad++;
    }
}
var_dump($created > 100, $bad);
for ($i = 0; $i < 20 && $i < $created; $i++) {
    Table::delete('k', "ns$i");
}
var_dump(Table::set('d', 'default works'), Table::get('d') ?? 'evicted');
?>
--EXPECT--
ok
bool(true)
int(0)
bool(true)
string(13) "default works"
