<?php
/* status/test/values.php - the page configured as a user would to show values (test only). */
define('TABLE_STATUS_SHOW_VALUES', true);
define('TABLE_STATUS_PAGE_SIZE', 10);
define('TABLE_STATUS_BROWSE_MAX', 30);
require __DIR__ . '/table-status.php';
