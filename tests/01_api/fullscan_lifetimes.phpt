--TEST--
Shm\Table: fullscan: generators abandoned, kept until shutdown, or finished in destructors are all fine
--INI--
table.memory=2M
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

for ($i = 0; $i < 50; $i++) {
    Table::set("k$i", $i);
}
// many generators, some never started, some abandoned half-way
$n = 0;
for ($i = 0; $i < 500; $i++) {
    $g = Table::fullscan(null, 1);
    if ($i % 2) {
        foreach ($g as $ns => $key) {
            if (++$n % 7 === 0) {
                break;
            }
        }
    }
}
// an exception thrown out of the loop body
try {
    foreach (Table::fullscan() as $ns => $key) {
        throw new RuntimeException('out of the loop');
    }
} catch (RuntimeException $e) {
    echo $e->getMessage(), "\n";
}
// two scans interleaved
$a = Table::fullscan('k1*', 1);
$b = Table::fullscan('k2*', 1);
$seen = [];
while ($a->valid() || $b->valid()) {
    foreach ([$a, $b] as $g) {
        if ($g->valid()) {
            $seen[] = $g->current();
            $g->next();
        }
    }
}
sort($seen);
echo implode(',', $seen), "\n";
// a finished generator can't be rewound, like any generator
try {
    $a->rewind();
} catch (Exception $e) {
    echo get_class($e), ': ', $e->getMessage(), "\n";
}
// kept alive until shutdown: in a global, in a static, and in a cycle whose destructor finishes it
$GLOBALS['kept'] = Table::fullscan(null, 2);
$GLOBALS['kept']->current();
class Holder {
    public static $gen;
    public $self;
    public $gen2;
    public function __destruct() {
        $c = 0;
        foreach ($this->gen2 as $ns => $key) {
            $c++;
        }
        echo "destructor finished a scan: ", $c > 0 ? 'yes' : 'no', "\n";
    }
}
Holder::$gen = Table::fullscan();
Holder::$gen->current();
$h = new Holder;
$h->self = $h;
$h->gen2 = Table::fullscan(null, 3);
$h->gen2->current();
unset($h);
echo "end of script\n";
?>
--EXPECT--
out of the loop
k1,k10,k11,k12,k13,k14,k15,k16,k17,k18,k19,k2,k20,k21,k22,k23,k24,k25,k26,k27,k28,k29
Exception: Cannot rewind a generator that was already run
end of script
destructor finished a scan: yes
