<?php
// php/apcu-apps/laravel.php - Laravel's `apc` cache store (Debian's php-illuminate-cache, unchanged):
// Illuminate\Cache\Repository over ApcStore over ApcWrapper, as CacheManager::createApcDriver() builds
// it, on table.apcu_compat=1.
//
//   write  (process 1) put, forever, add of a new key
//   read   (process 2) reads them; add of an existing key fails and keeps the value; add raced by N forked
//          processes; increment by N forked processes × M; decrement; forget
//   flush  (process 3) flush() empties the store for the next process, and only the apcu namespace
//   after  (process 4) nothing of the store is left; a Shm\Table value of another namespace is
//
// Laravel's ApcStore has no add() of its own (8.x and 10.x alike): Repository::add() is get() then put(),
// so it is not atomic with APCu either. The race below checks what that code does promise (someone wins,
// the value kept is a winner's, every process then reads the same value) and says how many won.

require __DIR__ . '/lib.php';

$step = step(['write', 'read', 'flush', 'after']);
require_once 'Illuminate/Cache/autoload.php';

use Illuminate\Cache\ApcStore;
use Illuminate\Cache\ApcWrapper;
use Illuminate\Cache\Repository;

const N = 4;        // processes
const M = 2000;     // increments each

function repo(): Repository
{
	return new Repository(new ApcStore(new ApcWrapper(), 'apps_laravel:'));
}

check_setup($step === 'write');
$cache = repo();
if ($step === 'write') {
	check($cache->put('user:1', ['id' => 1, 'name' => 'Ada'], 600), 'laravel: put()');
	check($cache->forever('config', (object)['debug' => false]), 'laravel: forever() of an object');
	check($cache->add('once', 'first', 600) === true, 'laravel: add() of a new key is true');
	check($cache->put('counter', 10, 600), 'laravel: put() of an int');
} elseif ($step === 'read') {
	check($cache->get('user:1') === ['id' => 1, 'name' => 'Ada'], 'laravel: process 2 get()s process 1\'s put()', show($cache->get('user:1')));
	check($cache->get('config') == (object)['debug' => false], 'laravel: ... and its forever() object', show($cache->get('config')));
	check($cache->has('user:1') && !$cache->has('nothing') && $cache->get('nothing', 'dflt') === 'dflt', 'laravel: has(), and get() of a miss gives the default');
	check($cache->add('once', 'second', 600) === false && $cache->get('once') === 'first', 'laravel: add() of a key another process added is false and keeps its value');

	// N processes race to add one key.
	$codes = fork_race(N, 'laravel-add', static function (int $i): int {
		return repo()->add('race', "child $i", 600) ? 1 : 0;
	});
	$winners = array_keys(array_filter($codes, static fn ($c) => $c === 1));
	$kept = $cache->get('race');
	check(!in_array(255, $codes, true) && count($winners) >= 1 && in_array($kept, array_map(static fn ($i) => "child $i", $winners), true),
		'laravel: add() raced by ' . N . ' forked processes: ' . count($winners) . ' won (Repository::add is get()+put() for this store), the value kept is a winner\'s',
		'codes=' . show($codes) . ' kept=' . show($kept));

	// N processes × M increments of one key, from put(10) by process 1.
	$codes = fork_race(N, 'laravel-inc', static function (int $i): int {
		$c = repo();
		$bad = 0;
		for ($k = 0; $k < M; $k++) {
			if (!is_int($c->increment('counter'))) {
				$bad++;
			}
		}
		return min($bad, 250);
	});
	$n = $cache->get('counter');
	check($codes === array_fill(0, N, 0) && $n === 10 + N * M, 'laravel: increment() by ' . N . ' forked processes × ' . M . ' is exact (' . (10 + N * M) . ')',
		'codes=' . show($codes) . ' value=' . show($n));
	check($cache->decrement('counter', 5) === 10 + N * M - 5, 'laravel: decrement()');
	check($cache->increment('fresh', 3) === 3 && $cache->get('fresh') === 3, 'laravel: increment() of a missing key starts it');
	check($cache->forget('user:1') && $cache->get('user:1') === null, 'laravel: forget()');
} elseif ($step === 'flush') {
	Shm\Table::set('survivor', 'not apcu', null, 'apps-other');
	check($cache->get('once') === 'first', 'laravel: process 3 sees the store before flush()');
	check($cache->flush(), 'laravel: flush() (apcu_clear_cache)');
	check($cache->get('once') === null && $cache->get('counter') === null, 'laravel: nothing is left after flush() in this process');
} else {
	check($cache->get('once') === null && $cache->get('config') === null && $cache->get('counter') === null,
		'laravel: process 4 sees the store flushed');
	check(Shm\Table::get('survivor', 'apps-other') === 'not apcu', 'laravel: flush() left another namespace of the table alone');
	check($cache->add('once', 'again', 600) === true, 'laravel: add() after flush() is true again');
}
