<?php

// Application A's front controller: cache.prefix "appa" (see app.php).

(require __DIR__ . '/app.php')('appa');
