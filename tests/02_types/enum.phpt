--TEST--
Shm\Table: types: enum cases come back as the very same case
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

enum Suit: string {
    case Hearts = 'H';
    case Spades = 'S';
}
enum Status {
    case Active;
    case Inactive;
}
Table::set('suit', Suit::Spades);
Table::set('status', Status::Inactive);
Table::set('mixed', ['suit' => Suit::Hearts, 'list' => [Status::Active, Status::Active]]);
var_dump(Table::get('suit') === Suit::Spades);
var_dump(Table::get('status') === Status::Inactive);
$m = Table::get('mixed');
var_dump($m['suit'] === Suit::Hearts, $m['list'][0] === Status::Active, $m['list'][1] === $m['list'][0]);
var_dump(Table::get('suit')->value);
var_dump(Table::cas('suit', Suit::Spades, Suit::Hearts), Table::get('suit') === Suit::Hearts);
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
string(1) "S"
bool(true)
bool(true)
