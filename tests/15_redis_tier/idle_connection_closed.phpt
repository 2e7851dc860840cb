--TEST--
Shm\Table: redis tier: a connection Redis closed while the process was idle is replaced before the next call, which succeeds
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; require __DIR__ . '/tier.inc'; tier_skipif(); ?>
--FILE--
<?php
require __DIR__ . '/tier.inc';
/* Issue 33, finding 7: the per-process connection outlives requests; Redis's `timeout`, a proxy or
 * CLIENT KILL closes it meanwhile. Here CLIENT KILL TYPE normal closes the agent's connection (and the
 * helper's, which reconnects on its own); the test waits until the server lists none of the connections
 * it killed, then the agent's next tiered calls must go through on a new connection. */
$r = tier_redis_start();
$a = tier_agent($r);

function normal_ids(array $r): array
{
    preg_match_all('/\bid=(\d+)/', tier_cli($r, 'CLIENT', 'LIST', 'TYPE', 'normal'), $m);
    return $m[1];
}

function kill_idle(array $r): bool
{
    $before = normal_ids($r);
    tier_cli($r, 'CLIENT', 'KILL', 'TYPE', 'normal');
    return table_wait_until(fn () => array_intersect($before, normal_ids($r)) === []);
}

function attempt(array $h, string $code): void
{
    tier_send($h, $code);
    $ans = tier_answer($h);
    echo isset($ans['e']) ? 'threw: ' . $ans['e'] : json_encode($ans['r']), "\n";
}

attempt($a, 'return Shm\Table::set("k", "v1", null, "shared");');
var_dump(kill_idle($r));
attempt($a, 'return Shm\Table::set("k", "v2", null, "shared");');
echo tier_cli($r, 'EXISTS', 'table:6:shared:k'), "\n";
var_dump(kill_idle($r));
attempt($a, 'return Shm\Table::get("missing", "shared");');
var_dump(kill_idle($r));
attempt($a, 'return Shm\Table::getMany(["k", "missing"], "shared");');
var_dump(kill_idle($r));
attempt($a, 'return Shm\Table::increment("n", 5, null, "shared");');
seg_wait($a);
?>
--EXPECT--
true
bool(true)
true
1
bool(true)
null
bool(true)
{"k":"v2"}
bool(true)
5
