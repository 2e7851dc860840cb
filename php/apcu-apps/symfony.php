<?php
// php/apcu-apps/symfony.php - Symfony's ApcuAdapter (Debian's php-symfony-cache, unchanged) on
// table.apcu_compat=1: isSupported(), a pool written by one process and read by another, clear() of one
// pool's namespace (APCUIterator + apcu_delete()) leaving the other pool, and a version change.
//
//   write  (process 1) pools "apps-a" and "apps-b" (version v1), items of several types
//   read   (process 2) reads them back, then clears pool a
//   after  (process 3) pool a is empty, pool b intact; pool b with version v2 is cleared by its constructor

require __DIR__ . '/lib.php';

$step = step(['write', 'read', 'after']);
require_once 'Symfony/Component/Cache/autoload.php';

use Symfony\Component\Cache\Adapter\ApcuAdapter;

final class AppsValue
{
	public function __construct(public string $name = '', public array $tags = [])
	{
	}
}

$values = [
	'int' => 42,
	'float' => 1.5,
	'string' => str_repeat('table ', 100),
	'bool' => false,
	'null' => null,
	'list' => [1, 2, [3, 'four']],
	'object' => new AppsValue('o', ['x', 'y']),
];

/** @return array<string, array{bool, mixed}> key => [isHit, value] */
function read_pool(ApcuAdapter $pool, array $keys): array
{
	$out = [];
	foreach ($pool->getItems($keys) as $k => $item) {
		$out[$k] = [$item->isHit(), $item->get()];
	}
	return $out;
}

check_setup($step === 'write');
if ($step === 'write') {
	check(ApcuAdapter::isSupported(), 'symfony: ApcuAdapter::isSupported()');
	$a = new ApcuAdapter('apps-a', 0, 'v1');
	$b = new ApcuAdapter('apps-b', 0, 'v1');
	$saved = true;
	foreach ($values as $k => $v) {
		$saved = $a->save($a->getItem($k)->set($v)) && $saved;
	}
	foreach (['b1' => 'only in b', 'b2' => [1, 2]] as $k => $v) {
		$b->saveDeferred($b->getItem($k)->set($v));
	}
	$saved = $b->commit() && $saved;
	check($saved, 'symfony: process 1 saves the items (save() and saveDeferred()+commit())');
	check($a->get('computed', static fn () => 'computed once') === 'computed once', 'symfony: get() with a callback computes a miss');
} elseif ($step === 'read') {
	$a = new ApcuAdapter('apps-a', 0, 'v1');   // the same version: its constructor must not clear the pool
	$b = new ApcuAdapter('apps-b', 0, 'v1');
	$got = read_pool($a, array_keys($values));
	$bad = [];
	foreach ($values as $k => $v) {
		if (!$got[$k][0] || $got[$k][1] != $v || gettype($got[$k][1]) !== gettype($v)) {
			$bad[] = "$k: " . show($got[$k]);
		}
	}
	check($bad === [], 'symfony: process 2 reads every item of pool a, as written (getItems(): apcu_fetch of an array of keys)', implode('; ', $bad));
	check($got['object'][1] instanceof AppsValue, 'symfony: ... the object comes back as its class', show($got['object'][1]));
	check($a->hasItem('int') && !$a->hasItem('never-written'), 'symfony: hasItem() (apcu_exists)');
	check($a->get('computed', static fn () => 'computed again') === 'computed once', 'symfony: get() serves process 1\'s computed value');
	check($a->deleteItem('float') && !$a->getItem('float')->isHit(), 'symfony: deleteItem()');

	check($a->clear(), 'symfony: pool a clear()');
	$after = read_pool($a, array_keys($values));
	check(array_filter($after, static fn ($r) => $r[0]) === [], 'symfony: pool a is empty after its clear()', show($after));
	$gotB = read_pool($b, ['b1', 'b2']);
	check($gotB === ['b1' => [true, 'only in b'], 'b2' => [true, [1, 2]]], 'symfony: pool b is untouched by pool a\'s clear()', show($gotB));
	check(apcu_exists('v1@apps-b'), 'symfony: pool b\'s version marker (apcu_add of null) is there');
} else {
	$a = new ApcuAdapter('apps-a', 0, 'v1');
	$b = new ApcuAdapter('apps-b', 0, 'v1');
	check(!$a->getItem('int')->isHit() && !$a->getItem('object')->isHit(), 'symfony: process 3 sees pool a cleared');
	check($b->getItem('b1')->get() === 'only in b', 'symfony: process 3 sees pool b\'s items');
	$b2 = new ApcuAdapter('apps-b', 0, 'v2');   // a new version clears the namespace
	check(!$b2->getItem('b1')->isHit() && !$b->getItem('b2')->isHit(), 'symfony: a pool of a new version (v2) starts empty: its constructor cleared the namespace');
	$b2->save($b2->getItem('b1')->set('v2 value'));
	$b3 = new ApcuAdapter('apps-b', 0, 'v2');
	check($b3->getItem('b1')->get() === 'v2 value', 'symfony: the same version again keeps the items');
}
