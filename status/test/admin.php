<?php
/* status/test/admin.php - the page configured as a user would to allow actions (test only): user "admin",
 * password "s3cret" (a bcrypt hash of cost 4, to keep the test quick), a sample every second. */
define('TABLE_STATUS_ACTIONS', true);
define('TABLE_STATUS_USERS', ['admin' => '$2y$04$dAZ5ikn8ObCJOhXQzQFW0.kYCIVUdirXx41IVzq.xhHmHDX2jRgNS']);
define('TABLE_STATUS_POLL', 1);
require __DIR__ . '/table-status.php';
