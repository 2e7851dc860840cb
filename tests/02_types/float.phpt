--TEST--
Shm\Table: types: floats keep their exact bits (-0.0, INF, NAN, 0.1+0.2, denormals)
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
use Shm\Table;

$values = [0.0, -0.0, 1.0, -1.5, 0.1 + 0.2, INF, -INF, PHP_FLOAT_EPSILON, PHP_FLOAT_MIN, PHP_FLOAT_MAX,
    -PHP_FLOAT_MAX, 5e-324, 2.0 ** 53, 1e100, M_PI];
foreach ($values as $i => $v) {
    Table::set("f$i", $v);
}
foreach ($values as $i => $v) {
    $got = Table::get("f$i");
    echo gettype($got), ' ', var_export($got, true), ' ', pack('E', $got) === pack('E', $v) ? 'same bits' : 'DIFFERENT BITS', "\n";
}
Table::set('nan', NAN);
$nan = Table::get('nan');
var_dump(is_float($nan), is_nan($nan));
// -0.0 is really negative zero
var_dump(fdiv(1, Table::get('f1')));
var_dump(Table::get('f4') === 0.1 + 0.2, Table::get('f4') === 0.3);
// 1.0 stays a float, never becomes int 1
var_dump(Table::get('f2'));
?>
--EXPECT--
double 0.0 same bits
double -0.0 same bits
double 1.0 same bits
double -1.5 same bits
double 0.30000000000000004 same bits
double INF same bits
double -INF same bits
double 2.220446049250313E-16 same bits
double 2.2250738585072014E-308 same bits
double 1.7976931348623157E+308 same bits
double -1.7976931348623157E+308 same bits
double 5.0E-324 same bits
double 9007199254740992.0 same bits
double 1.0E+100 same bits
double 3.141592653589793 same bits
bool(true)
bool(true)
float(-INF)
bool(true)
bool(false)
float(1)
