--TEST--
Shm\Table: namespaces: processes of another user than the anonymous table's see namespaces of their own, through every method (issue 33, finding 9)
--SKIPIF--
<?php
require __DIR__ . '/../skipif.inc';
table_skip_unless_pcntl();
if (!function_exists('posix_geteuid') || posix_geteuid() !== 0) {
    die('skip needs root: its children run as other users');
}
?>
--ENV--
TABLE_TEST_HOOKS=1
--INI--
table.memory=8M
--FILE--
<?php
use Shm\Table;

/* What a process sees through every method that lists or reads. */
function view(): string
{
    $scan = [];
    foreach (Table::fullscan() as $ns => $key) {
        $scan[] = ($ns ?? 'null') . ':' . $key;
    }
    sort($scan);
    $stats = Table::stats()['namespaces'];
    ksort($stats);
    $ns = Table::namespaces();
    sort($ns);
    $keys = Table::keys('*', 'owner_ns');
    sort($keys);
    return json_encode([
        'get' => [Table::get('secret'), Table::get('secret', 'owner_ns'), Table::get('secret', 'guest_ns')],
        'getMany' => Table::getMany(['secret', 'other'], 'owner_ns'),
        'exists' => Table::exists('secret', 'owner_ns'),
        'keys' => $keys,
        'count' => [Table::count(), Table::count('owner_ns'), Table::count('guest_ns')],
        'namespaces' => $ns,
        'stats' => array_map(fn ($n) => $n['count'], $stats),
        'fullscan' => $scan,
        'metrics names the owner\'s namespace' => str_contains(Table::metrics(), 'owner_ns'),
        'metrics names the guest\'s namespace' => str_contains(Table::metrics(), 'guest_ns'),
    ]) . "\n";
}

/* Runs $body in a child as user $uid (after a first request as that user, as a php-fpm worker's is). */
function as_user(int $uid, callable $body): void
{
    $pid = pcntl_fork();
    if ($pid === 0) {
        posix_setgid($uid);
        posix_setuid($uid);
        if (!Shm\__table_test_user_view()) {
            echo "the table refused user $uid\n";
            exit(1);
        }
        $body();
        exit(0);
    }
    pcntl_waitpid($pid, $status);
    if (!pcntl_wifexited($status) || pcntl_wexitstatus($status) !== 0) {
        echo "the child of user $uid failed\n";
    }
}

// This process (root) made the first request: the table is root's.
Table::set('secret', 'root default');
Table::set('secret', 'root ns', null, 'owner_ns');
Table::set('other', 'root other', null, 'owner_ns');

echo "guest (65534), first look:\n";
as_user(65534, function () {
    echo view();
    // Its own entries, under the same names as root's.
    Table::set('secret', 'guest default');
    Table::set('secret', 'guest ns', null, 'guest_ns');
    Table::set('secret', 'guest in owner_ns', null, 'owner_ns');
    echo view();
    echo 'clearAll removes ', Table::clearAll(), " entries (its own three)\n";
    Table::set('secret', 'guest default');
    Table::set('secret', 'guest ns', null, 'guest_ns');
    // No name reaches another user's namespaces: the prefix's byte is refused.
    foreach (["\x01" . '0' . "\x01" . 'owner_ns', "\x01"] as $name) {
        try {
            Table::get('secret', $name);
        } catch (ValueError $e) {
            echo get_class($e), ': ', $e->getMessage(), "\n";
        }
    }
});

echo "root:\n";
echo view();
echo 'clearAll removes ', Table::clearAll(), " entries (its own three)\n";
try {
    Table::get('secret', "\x01" . '65534' . "\x01" . 'guest_ns');
} catch (ValueError $e) {
    echo get_class($e), ': ', $e->getMessage(), "\n";
}
Table::set('secret', 'root ns', null, 'owner_ns');

echo "guest again: its entries outlived root's clearAll\n";
as_user(65534, function () {
    echo view();
});

echo "a third user sees neither\n";
as_user(65533, function () {
    echo view();
});
var_dump(Shm\__table_test_check());
?>
--EXPECT--
guest (65534), first look:
{"get":[null,null,null],"getMany":[],"exists":false,"keys":[],"count":[0,0,0],"namespaces":[],"stats":{"":0},"fullscan":[],"metrics names the owner's namespace":false,"metrics names the guest's namespace":false}
{"get":["guest default","guest in owner_ns","guest ns"],"getMany":{"secret":"guest in owner_ns"},"exists":true,"keys":["secret"],"count":[1,1,1],"namespaces":["guest_ns","owner_ns"],"stats":{"":1,"guest_ns":1,"owner_ns":1},"fullscan":["guest_ns:secret","null:secret","owner_ns:secret"],"metrics names the owner's namespace":true,"metrics names the guest's namespace":true}
clearAll removes 3 entries (its own three)
ValueError: Shm\Table::get(): Argument #2 ($namespace) must not begin with the byte 0x01
ValueError: Shm\Table::get(): Argument #2 ($namespace) must not begin with the byte 0x01
root:
{"get":["root default","root ns",null],"getMany":{"secret":"root ns","other":"root other"},"exists":true,"keys":["other","secret"],"count":[1,2,0],"namespaces":["owner_ns"],"stats":{"":1,"owner_ns":2},"fullscan":["null:secret","owner_ns:other","owner_ns:secret"],"metrics names the owner's namespace":true,"metrics names the guest's namespace":false}
clearAll removes 3 entries (its own three)
ValueError: Shm\Table::get(): Argument #2 ($namespace) must not begin with the byte 0x01
guest again: its entries outlived root's clearAll
{"get":["guest default",null,"guest ns"],"getMany":[],"exists":false,"keys":[],"count":[1,0,1],"namespaces":["guest_ns"],"stats":{"":1,"guest_ns":1},"fullscan":["guest_ns:secret","null:secret"],"metrics names the owner's namespace":false,"metrics names the guest's namespace":true}
a third user sees neither
{"get":[null,null,null],"getMany":[],"exists":false,"keys":[],"count":[0,0,0],"namespaces":[],"stats":{"":0},"fullscan":[],"metrics names the owner's namespace":false,"metrics names the guest's namespace":false}
string(0) ""
