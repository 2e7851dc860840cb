<?php

/*
 * php/bench/overhead.php - what each adapter adds to a Shm\Table read, in one process.
 *
 *   php -d extension=/path/to/table.so [-d apc.enable_cli=1] php/bench/overhead.php [ITERATIONS]
 *
 * Reads one small array (a hit) ITERATIONS times (default 1,000,000) through Shm\Table::get() and through
 * each adapter, in 7 interleaved rounds (so that a load change on a shared machine hits every case alike),
 * and prints the median round's reads per second and the cost per read over the bare call. With APCu loaded
 * (and apc.enable_cli=1), Symfony's ApcuAdapter and Laravel's ApcStore are timed the same way for
 * comparison. A measurement, not a test: nothing here asserts a speed.
 */

require __DIR__ . '/../tests/bootstrap.php';

use Shm\Table;

$n = (int) ($argv[1] ?? 1000000);
$value = ['id' => 42, 'name' => 'meteorite', 'mass' => 21.5, 'tags' => ['a', 'b']];

Table::set('k', $value, null, 'bench');
$simple = new Shm\Cache\SimpleCache('bench');
$pool = new Shm\Cache\CacheItemPool('bench');
$sf = new Shm\Cache\Symfony\TableAdapter('bench-sf');
$sf->save($sf->getItem('k')->set($value));
$lv = new Illuminate\Cache\Repository(new Shm\Cache\Laravel\TableStore('bench-lv'));
$lv->forever('k', $value);

$cases = [
    'Shm\Table::get()' => static function () { return Table::get('k', 'bench'); },
    'SimpleCache::get()' => static function () use ($simple) { return $simple->get('k'); },
    'CacheItemPool::getItem()->get()' => static function () use ($pool) { return $pool->getItem('k')->get(); },
    'Symfony TableAdapter::getItem()->get()' => static function () use ($sf) { return $sf->getItem('k')->get(); },
    'Symfony TableAdapter::get(key, callback)' => static function () use ($sf) { return $sf->get('k', static fn () => null); },
    'Laravel Repository(TableStore)::get()' => static function () use ($lv) { return $lv->get('k'); },
];
if (function_exists('apcu_store') && filter_var(ini_get('apc.enable_cli'), FILTER_VALIDATE_BOOLEAN)) {
    $apcu = new Symfony\Component\Cache\Adapter\ApcuAdapter('bench-apcu');
    $apcu->save($apcu->getItem('k')->set($value));
    $apcuLv = new Illuminate\Cache\Repository(new Illuminate\Cache\ApcStore(new Illuminate\Cache\ApcWrapper(), 'bench-lv:'));
    $apcuLv->forever('k', $value);
    apcu_store('bench:k', $value);
    $cases += [
        'apcu_fetch()' => static function () { return apcu_fetch('bench:k'); },
        'Symfony ApcuAdapter::getItem()->get()' => static function () use ($apcu) { return $apcu->getItem('k')->get(); },
        'Laravel Repository(ApcStore)::get()' => static function () use ($apcuLv) { return $apcuLv->get('k'); },
    ];
}

printf("PHP %s, %s reads each in 7 interleaved rounds (median), opcache %s\n", PHP_VERSION, number_format($n),
    function_exists('opcache_get_status') && ini_get('opcache.enable_cli') ? 'on' : 'off');
foreach ($cases as $name => $read) {
    if ($read() != $value) {
        fwrite(STDERR, "$name: wrong value\n");
        exit(1);
    }
}
$rounds = 7;
$per = max(1, intdiv($n, $rounds));
$samples = [];
for ($r = 0; $r < $rounds; $r++) {
    foreach ($cases as $name => $read) {
        $t = hrtime(true);
        for ($i = 0; $i < $per; $i++) {
            $read();
        }
        $samples[$name][] = (hrtime(true) - $t) / $per;
    }
}
$base = null;
foreach ($samples as $name => $ns) {
    sort($ns);
    $ns = $ns[intdiv($rounds, 2)];
    $base ??= $ns;
    printf("  %-42s %11s reads/s  %7.1f ns/read  %+7.1f ns over Shm\\Table::get()\n", $name, number_format(1e9 / $ns), $ns, $ns - $base);
}
