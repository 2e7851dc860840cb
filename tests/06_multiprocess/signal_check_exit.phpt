--TEST--
Shm\Table: multiprocess: children that call exit() anywhere leave no zend_signal warning (zend.signal_check=1)
--INI--
zend.signal_check=1
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; table_skip_unless_pcntl(); ?>
--FILE--
<?php
use Shm\Table;
require __DIR__ . '/../helpers.inc';

class ExitOnSerialize {
    public function __serialize(): array { exit(0); }
    public function __unserialize(array $d): void {}
}
class ExitOnWakeup {
    public $v = 1;
    public function __wakeup() { exit(0); }
}
Table::set('k', 'v');
Table::set('wakeup', new ExitOnWakeup);
for ($i = 0; $i < 100; $i++) {
    Table::set("scan$i", $i);
}

$variants = [
    'after normal use' => function () {
        Table::set('a', [1, 2]);
        Table::get('k');
        Table::increment('n');
        Table::getMany(['a', 'k']);
        exit();
    },
    'with exit code 0 after a miss' => function () {
        Table::get('missing');
        exit(0);
    },
    'inside remember()' => function () {
        Table::remember('remembered', function () { exit(0); });
    },
    'inside __serialize during set()' => function () {
        Table::set('x', new ExitOnSerialize);
    },
    'inside __wakeup during get()' => function () {
        Table::get('wakeup');
    },
    'inside a fullscan() loop' => function () {
        foreach (Table::fullscan(null, 10) as $ns => $key) {
            exit(0);
        }
    },
    'inside a shutdown function' => function () {
        register_shutdown_function(function () { Table::set('from shutdown', 1); });
        exit(0);
    },
    'without touching the table' => function () {
        exit(0);
    },
];
foreach ($variants as $name => $fn) {
    $child = table_child_start($fn);
    table_child_wait($child, 0);
    echo "$name: done\n";
}
// the table is still fully usable
var_dump(Table::get('k'), Table::get('a'), Table::get('n'), Table::exists('remembered'), Table::exists('x'), Table::get('from shutdown'));
var_dump(Table::remember('remembered', fn() => 'parent computed'));
?>
--EXPECT--
after normal use: done
with exit code 0 after a miss: done
inside remember(): done
inside __serialize during set(): done
inside __wakeup during get(): done
inside a fullscan() loop: done
inside a shutdown function: done
without touching the table: done
string(1) "v"
array(2) {
  [0]=>
  int(1)
  [1]=>
  int(2)
}
int(1)
bool(false)
bool(false)
int(1)
string(15) "parent computed"
