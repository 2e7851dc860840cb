<?php
// php/apcu-apps/composer.php - Composer's ClassLoader (Debian's composer package, unchanged) with
// setApcuPrefix(), on table.apcu_compat=1: a class that one process finds through its PSR-4 map is served
// to the next process from the cache.
//
//   find   (process 1) writes a PSR-4 fixture class under $APPS_TMP, loads it through a ClassLoader that
//          maps its namespace, and looks up a class that does not exist: Composer apcu_add()s both answers
//   serve  (process 2) a ClassLoader with the same APCu prefix and no map at all loads the class: the path
//          can only have come from apcu_fetch(); a loader with another prefix finds nothing (the control)
//
// $COMPOSER_CLASSLOADER names Debian's ClassLoader.php; $APPS_TMP is the run's temporary directory.

require __DIR__ . '/lib.php';

$step = step(['find', 'serve']);
require getenv('COMPOSER_CLASSLOADER');

use Composer\Autoload\ClassLoader;

const PREFIX = 'apps-composer:';
const CLS = 'AppsFixture\\Greeter';
const MISSING = 'AppsFixture\\Nowhere';
$src = getenv('APPS_TMP') . '/composer-src';

check_setup($step === 'find');
if ($step === 'find') {
	@mkdir("$src/Sub", 0700, true);
	file_put_contents("$src/Sub/Greeter.php", "<?php\nnamespace AppsFixture\\Sub;\nclass Greeter { public function hello(): string { return 'hello from ' . __FILE__; } }\n");
	file_put_contents("$src/Greeter.php", "<?php\nnamespace AppsFixture;\nclass Greeter { public function hello(): string { return 'hello from ' . __FILE__; } }\n");

	$loader = new ClassLoader();
	$loader->addPsr4('AppsFixture\\', $src . '/');
	$loader->setApcuPrefix(PREFIX);
	check($loader->getApcuPrefix() === PREFIX, 'composer: setApcuPrefix() keeps the prefix (it reads apc.enabled and apcu_fetch)',
		'getApcuPrefix() = ' . show($loader->getApcuPrefix()));
	$loader->register(true);

	$file = $loader->findFile(CLS);
	check($file !== false && realpath($file) === realpath("$src/Greeter.php"), 'composer: process 1 finds the class through its PSR-4 map', show($file));
	check(class_exists(CLS) && (new ReflectionClass(CLS))->getFileName() === realpath("$src/Greeter.php"),
		'composer: process 1 loads it');
	$cached = apcu_fetch(PREFIX . CLS, $hit);
	check($hit === true && $cached === $file, 'composer: the path is in APCu under the prefix', 'hit=' . show($hit) . ' value=' . show($cached));

	check($loader->findFile(MISSING) === false, 'composer: a class that does not exist is not found');
	$cached = apcu_fetch(PREFIX . MISSING, $hit);
	check($hit === true && $cached === false, 'composer: ... and the miss is cached too (apcu_add of false)',
		'hit=' . show($hit) . ' value=' . show($cached));
	$loader->unregister();
} else {
	// A loader that knows nothing of AppsFixture: no PSR-4 or PSR-0 map, no class map.
	$control = new ClassLoader();
	$control->setApcuPrefix('apps-composer-control:');
	check($control->findFile(CLS) === false, 'composer: control: a loader without the map and with another prefix does not find the class');

	$loader = new ClassLoader();
	$loader->setApcuPrefix(PREFIX);
	check($loader->getPrefixesPsr4() === [] && $loader->getClassMap() === [], 'composer: process 2\'s loader has no map');
	$loader->register(true);
	$ok = class_exists(CLS);
	check($ok, 'composer: process 2 loads the class found by process 1, from apcu_fetch()');
	if ($ok) {
		$hello = (new (CLS)())->hello();
		check($hello === 'hello from ' . realpath("$src/Greeter.php"), 'composer: ... the fixture\'s own file', show($hello));
	}
	check(!class_exists('AppsFixture\\Sub\\Greeter'), 'composer: a class process 1 never looked up is not found (nothing but the cache serves this loader)');
	check($loader->findFile(MISSING) === false, 'composer: the cached miss is a miss');
	$loader->unregister();
}
