<?php
// php/apcu-apps/mediawiki.php - MediaWiki's APCUBagOStuff (Debian's mediawiki package, unchanged), the
// local-server cache MediaWiki picks whenever apcu_fetch exists, on table.apcu_compat=1.
//
// Loaded standalone, without MediaWiki's Setup.php (no LocalSettings, no database): the class and its
// parents (MediumSpecificBagOStuff, BagOStuff) are libraries of includes/libs/, found through
// MediaWiki's own class map (autoload.php's $wgAutoloadLocalClasses); what they use of vendor/ (psr/log,
// wikimedia/*, liuggio/statsd) through vendor/autoload.php, Composer's, as MediaWiki's entry points do.
//
//   write  (process 1) set() of several values, add() of a new key, incrWithInit()
//   read   (process 2) get()s them, add() of an existing key fails and races have one winner (apcu_add),
//          incrWithInit() by N forked processes is exact (its apcu_cas loop, and apcu_inc), delete()
//   after  (process 3) sees process 2's deletes and counts
//
// $MEDIAWIKI_DIR: the MediaWiki tree (default /usr/share/mediawiki).

require __DIR__ . '/lib.php';

$step = step(['write', 'read', 'after']);
$IP = getenv('MEDIAWIKI_DIR') ?: '/usr/share/mediawiki';
require "$IP/vendor/autoload.php";
require "$IP/autoload.php";   // sets the global $wgAutoloadLocalClasses
spl_autoload_register(static function (string $class): void {
	global $wgAutoloadLocalClasses;
	if (isset($wgAutoloadLocalClasses[$class])) {
		require $wgAutoloadLocalClasses[$class];
	}
});
// 1.43 namespaced it (Wikimedia\ObjectCache) and keeps the old name as an alias; 1.39 has only the old one.
$class = class_exists('Wikimedia\\ObjectCache\\APCUBagOStuff') ? 'Wikimedia\\ObjectCache\\APCUBagOStuff' : 'APCUBagOStuff';

const N = 4;        // processes
const M = 500;      // operations each

function bag(): object
{
	global $class;
	return new $class([]);
}

check_setup($step === 'write');
$bag = bag();
$key = static fn (string ...$parts) => $bag->makeKey('apps-mw', ...$parts);
if ($step === 'write') {
	check($bag instanceof $class, "mediawiki: $class constructs standalone");
	check($bag->set($key('page', '1'), ['title' => 'Main Page', 'len' => 1234], 600), 'mediawiki: set() of an array');
	check($bag->set($key('obj'), (object)['a' => 1], 600), 'mediawiki: set() of an object');
	check($bag->set($key('str'), 'text'), 'mediawiki: set() of a string, no expiry');
	check($bag->add($key('once'), 'first', 600) === true, 'mediawiki: add() of a new key is true');
	check($bag->incrWithInit($key('hits'), 600, 1, 1) === 1, 'mediawiki: incrWithInit() of a new key starts it (apcu_inc with a TTL)');
	check($bag->set($key('ctr'), 100, 600), 'mediawiki: set() of an int');
} elseif ($step === 'read') {
	check($bag->get($key('page', '1')) === ['title' => 'Main Page', 'len' => 1234], 'mediawiki: process 2 get()s process 1\'s array', show($bag->get($key('page', '1'))));
	check($bag->get($key('obj')) == (object)['a' => 1], 'mediawiki: ... its object', show($bag->get($key('obj'))));
	check($bag->get($key('str')) === 'text' && $bag->get($key('missing')) === false, 'mediawiki: ... its string; a miss is false');
	check($bag->add($key('once'), 'second', 600) === false && $bag->get($key('once')) === 'first', 'mediawiki: add() of a key process 1 added is false and keeps its value');

	$codes = fork_race(N, 'mw-add', static function (int $i) use ($key): int {
		return bag()->add($key('race'), "child $i", 600) ? 1 : 0;
	});
	$winners = array_keys(array_filter($codes, static fn ($c) => $c === 1));
	check(count($winners) === 1 && $bag->get($key('race')) === 'child ' . $winners[0], 'mediawiki: add() raced by ' . N . ' forked processes has one winner, whose value is kept',
		'codes=' . show($codes) . ' kept=' . show($bag->get($key('race'))));

	// incrWithInit() with step !== init: MediaWiki's apcu_fetch + apcu_cas loop (at most 100 tries a call,
	// then it gives false). 1.39's incr() is the same loop; 1.43 has no incr() any more.
	$codes = fork_race(N, 'mw-cas', static function (int $i) use ($key): int {
		$b = bag();
		$failed = 0;
		for ($k = 0; $k < M; $k++) {
			if (!is_int($b->incrWithInit($key('ctr'), 600, 2, 0))) {
				$failed++;
			}
		}
		return min($failed, 250);
	});
	$done = N * M - array_sum($codes);
	$n = $bag->get($key('ctr'));
	check($n === 100 + 2 * $done && !in_array(255, $codes, true), 'mediawiki: incrWithInit() by 2 (apcu_cas loop) by ' . N . ' forked processes × ' . M . ": exact ($done succeeded)",
		'codes=' . show($codes) . ' value=' . show($n) . ' expected ' . (100 + 2 * $done));
	check($done === N * M, 'mediawiki: ... and none gave up after its 100 apcu_cas tries', (N * M - $done) . ' gave up');

	// incrWithInit() with step === init: apcu_inc.
	$codes = fork_race(N, 'mw-incrinit', static function (int $i) use ($key): int {
		$b = bag();
		$bad = 0;
		for ($k = 0; $k < M; $k++) {
			if (!is_int($b->incrWithInit($key('hits'), 600, 1, 1))) {
				$bad++;
			}
		}
		return min($bad, 250);
	});
	$n = $bag->get($key('hits'));
	check($codes === array_fill(0, N, 0) && $n === 1 + N * M, 'mediawiki: incrWithInit() (apcu_inc) by ' . N . ' forked processes × ' . M . ' is exact (' . (1 + N * M) . ')',
		'codes=' . show($codes) . ' value=' . show($n));
	check($bag->incrWithInit($key('ctr'), 600, -7, 0) === 100 + 2 * $done - 7, 'mediawiki: incrWithInit() by -7');
	check($bag->incrWithInit($key('init5'), 600, 2, 5) === 5 && $bag->incrWithInit($key('init5'), 600, 2, 5) === 7,
		'mediawiki: incrWithInit() with init != step (apcu_add, then apcu_cas)');
	check($bag->delete($key('str')) && $bag->get($key('str')) === false, 'mediawiki: delete()');
} else {
	check($bag->get($key('str')) === false, 'mediawiki: process 3 sees process 2\'s delete()');
	check($bag->get($key('hits')) === 1 + N * M && $bag->get($key('init5')) === 7, 'mediawiki: process 3 reads the counts');
	$merged = $bag->merge($key('page', '1'), static function ($bag, $k, $old) {
		return $old + ['seen' => true];
	}, 600);
	check($merged && $bag->get($key('page', '1')) === ['title' => 'Main Page', 'len' => 1234, 'seen' => true],
		'mediawiki: merge() (get with a CAS token, then apcu_cas or set under a lock)', show($bag->get($key('page', '1'))));
}
