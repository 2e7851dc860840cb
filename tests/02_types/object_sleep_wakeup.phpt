--TEST--
Shm\Table: types: __sleep/__wakeup are honoured
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

class Connection {
    public $dsn;
    public $handle;
    protected $user = 'admin';
    private $secret = 's3cret';
    public $woken = false;
    public function __construct($dsn) { $this->dsn = $dsn; $this->handle = 'live handle'; }
    public function __sleep() { return ['dsn', 'user', 'secret']; }
    public function __wakeup() { $this->woken = true; $this->handle = 'reconnected'; }
    public function secret() { return $this->secret; }
}
$c = new Connection('mysql:host=db');
Table::set('c', $c);
$got = Table::get('c');
var_dump(get_class($got), $got->dsn, $got->handle, $got->woken, $got->secret());
var_dump($c->woken, $c->handle);
?>
--EXPECT--
string(10) "Connection"
string(13) "mysql:host=db"
string(11) "reconnected"
bool(true)
string(6) "s3cret"
bool(false)
string(11) "live handle"
