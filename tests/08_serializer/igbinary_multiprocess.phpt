--TEST--
Shm\Table: serializer: igbinary-encoded objects written by a child are read by the parent
--INI--
table.serializer=igbinary
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; table_skip_unless_pcntl(); table_skip_unless_igbinary(); ?>
--FILE--
<?php
use Shm\Table;
require __DIR__ . '/../helpers.inc';

class Item { public function __construct(public int $id = 0, public array $tags = []) {} }
table_fork(4, function (int $w) {
    for ($i = 0; $i < 100; $i++) {
        Table::set("w$w:$i", new Item($i, ["w$w", str_repeat('t', $i)]));
    }
    return true;
});
$bad = 0;
for ($w = 0; $w < 4; $w++) {
    for ($i = 0; $i < 100; $i++) {
        $it = Table::get("w$w:$i");
        $bad += !($it instanceof Item && $it->id === $i && $it->tags === ["w$w", str_repeat('t', $i)]);
    }
}
var_dump($bad);
?>
--EXPECT--
int(0)
