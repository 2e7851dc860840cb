<?php
/*
 * status/test/fixture.php - served next to table-status.php by status/test/check.php only (never shipped
 * to a web folder). ?seed=1 fills the table with known data, hostile names included; ?stats=1 returns
 * stats() as JSON, as the server process (which owns the table the page shows) sees it; ?seed=demo fills
 * it like a busy application's cache, for the README's screenshot; ?hold=1 holds a retired entry as a
 * zero-copy reader until ?release=1; ?tier=1 writes and reads a tiered namespace.
 */
use Shm\Table;

header('Content-Type: application/json');
if (isset($_GET['tier'])) {
    // The Redis tier (check.php serves this with table.redis and table.redis_namespaces=tiered): writes,
    // reads of what exists and of what does not, so that every counter of stats()['redis'] has moved.
    for ($i = 0; $i < 20; $i++) {
        Table::set("k$i", ['n' => $i], null, 'tiered');
    }
    $found = 0;
    for ($round = 0; $round < 3; $round++) {
        for ($i = 0; $i < 20; $i++) {
            $found += Table::get("k$i", 'tiered') !== null;
        }
    }
    for ($i = 0; $i < 5; $i++) {
        Table::get("absent$i", 'tiered');
    }
    echo json_encode(['found' => $found, 'redis' => Table::stats()['redis']]);
    return;
}
if (($_GET['seed'] ?? '') === 'demo') {
    Table::clearAll();
    mt_srand(42);
    $record = ['id' => 0, 'name' => 'Aachen', 'class' => 'L5', 'mass' => 21.0, 'fall' => 'Fell', 'year' => 1880,
        'geo' => ['lat' => 50.775, 'lng' => 6.08333]];
    for ($i = 0; $i < 6000; $i++) {
        Table::set("meteorite:$i", ['id' => $i] + $record, null, 'meteorites');
    }
    for ($i = 0; $i < 3000; $i++) {
        Table::set("sess:" . bin2hex(random_bytes(8)), str_repeat('s', mt_rand(200, 2000)), 1440, 'sessions');
    }
    for ($i = 0; $i < 800; $i++) {
        Table::set("route:/product/$i", ['controller' => 'Product', 'action' => 'show', 'id' => $i], 3600, 'routes');
    }
    foreach (['feature:search' => true, 'feature:beta' => false, 'config' => ['debug' => false, 'ttl' => 60]] as $k => $v) {
        Table::set($k, $v);
    }
    for ($i = 0; $i < 200; $i++) {
        Table::increment('rate:' . mt_rand(1, 50), 1, 60, 'ratelimit');
    }
    for ($i = 0; $i < 20000; $i++) {
        Table::get('meteorite:' . mt_rand(0, 6999), 'meteorites');
    }
    for ($i = 0; $i < 1500; $i++) {
        Table::set('meteorite:' . mt_rand(0, 5999), ['id' => $i] + $record, null, 'meteorites');
    }
    echo json_encode(['seeded' => true]);
    return;
}
if (($_GET['seed'] ?? '') === 'admin') {
    // For the actions: five keys to delete one of, a namespace of 30 to clear, and a bystander.
    Table::clearAll();
    for ($i = 1; $i <= 5; $i++) {
        Table::set("k$i", "value $i", $i === 2 ? 900 : null, 'victims');
    }
    for ($i = 0; $i < 30; $i++) {
        Table::set("d$i", str_repeat('d', 100 + $i), null, 'doomed');
    }
    Table::set('bystander', 'stays');
    echo json_encode(['seeded' => true]);
    return;
}
if (($_GET['seed'] ?? '') === 'many') {
    // 10,000 namespaces (?n= otherwise), or as many as the table allows when it has a namespace ceiling.
    Table::clearAll();
    $want = (int) ($_GET['n'] ?? 10000);
    $n = 0;
    try {
        for (; $n < $want; $n++) {
            Table::set('k', str_repeat('v', 10 + $n % 97), null, sprintf('tenant%05d', $n));
        }
    } catch (Shm\TableException $e) {
        // the ceiling
    }
    Table::set('extra', 'x', null, sprintf('tenant%05d', 7));   // one namespace with 2 entries
    echo json_encode(['seeded' => true, 'namespaces' => $n]);
    return;
}
if (isset($_GET['traffic'])) {
    // Known traffic for the rate chart: 50 sets, 20 hits, 7 misses; the server's clock when done.
    for ($i = 0; $i < 50; $i++) {
        Table::set("t$i", $i, null, 'traffic');
    }
    for ($i = 0; $i < 20; $i++) {
        Table::get("t$i", 'traffic');
    }
    for ($i = 0; $i < 7; $i++) {
        Table::get("absent$i", 'traffic');
    }
    echo json_encode(['done' => microtime(true)]);
    return;
}
if (isset($_GET['has'])) {
    // exists() and count() of the server's table (exists() counts no hit).
    $ns = hex2bin((string) ($_GET['ns'] ?? '')) ?: null;
    echo json_encode(['exists' => Table::exists((string) hex2bin((string) $_GET['has']), $ns), 'count' => Table::count($ns),
        'bystander' => Table::get('bystander')]);
    return;
}
if (isset($_GET['hold'])) {
    // A zero-copy reader (table.zero_copy=1) that keeps holding an entry after it was overwritten: the
    // overwrite retires the entry, and the writes after it (more than one reclamation pass's worth) move it
    // from the retire queue to the held list. Sets zc/holding, then stays until ?release=1 (60 s at most).
    $record = ['blob' => str_repeat('h', 20000), 'n' => 1, 'name' => 'held'];
    Table::set('held', $record, null, 'zc');
    $held = Table::get('held', 'zc');
    $entries = Table::stats()['held_entries'];
    Table::set('held', 'replaced', null, 'zc');
    for ($i = 0; $i < 40; $i++) {
        Table::set('churn', str_repeat('c', 100 + $i), null, 'zc');
    }
    Table::set('holding', true, null, 'zc');
    for ($end = microtime(true) + 60; !Table::exists('release', 'zc') && microtime(true) < $end; ) {
        usleep(10000);
    }
    Table::delete('release', 'zc');
    Table::delete('holding', 'zc');
    echo json_encode(['intact' => $held === $record, 'held_entries' => $entries]);
    return;
}
if (isset($_GET['release'])) {
    Table::set('release', true, null, 'zc');
    echo json_encode(['released' => true]);
    return;
}
if (isset($_GET['ini'])) {
    echo json_encode(ini_get_all('table', false));
    return;
}
if (isset($_GET['seed'])) {
    Table::clearAll();
    for ($i = 0; $i < 40; $i++) {
        Table::set("user:$i", ['id' => $i, 'name' => "user $i"], $i < 10 ? 3600 : null, 'users');
    }
    for ($i = 0; $i < 25; $i++) {
        Table::set("page:$i", str_repeat('<p>fragment</p>', 20 + $i), 7200);
    }
    Table::set('config', ['debug' => false]);
    // Hostile names: markup in keys, namespaces and values, invalid UTF-8, control bytes.
    $xns = '<script id="xss-ns">document.title="pwned"</script>';
    Table::set('<img id="xss-key" src=x onerror="document.title=\'pwned\'">', '<b id="xss-val">bold</b>', null, $xns);
    Table::set("bin\x00\xff\xfe", 'binary key', 600, $xns);
    Table::set("quote\"'&amp;", 'quotes', null, $xns);
    Table::set('plain', 'x', null, "\xff\xfens");
    // Reads, so that hits, misses and the ratio are not zero.
    for ($i = 0; $i < 30; $i++) {
        Table::get("user:$i", 'users');
    }
    for ($i = 0; $i < 10; $i++) {
        Table::get("absent:$i");
    }
    Table::delete('page:0');
    echo json_encode(['seeded' => true, 'xss_ns' => bin2hex($xns), 'bin_ns' => bin2hex("\xff\xfens"),
        'ttl' => ['users' => 10, '' => 24, $xns => 1]]);
    return;
}
if (isset($_GET['stats'])) {
    $s = Table::stats();
    $ns = [];
    foreach ($s['namespaces'] as $name => $one) {
        $ns[bin2hex((string) $name)] = $one;
    }
    $s['namespaces'] = $ns;
    echo json_encode($s);
    return;
}
http_response_code(400);
