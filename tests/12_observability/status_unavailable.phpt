--TEST--
Shm\Table: observability: status/table-status.php says why when the table is disabled
--INI--
table.enabled=0
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc';
require __DIR__ . '/observability.inc';
if (obs_status_page() === null) die('skip status/table-status.php not found next to tests/');
?>
--FILE--
<?php
require __DIR__ . '/observability.inc';
ob_start();
require obs_status_page();
$html = ob_get_clean();
var_dump(str_contains($html, '<section class="wide err" id="error">'));
var_dump(str_contains($html, 'Shm\TableException: Shm\Table is disabled; set table.enabled=1 to use it'));
var_dump(str_contains($html, 'data-stat='), str_contains($html, "data-js=\"pending\""));
?>
--EXPECT--
bool(true)
bool(true)
bool(false)
bool(true)
