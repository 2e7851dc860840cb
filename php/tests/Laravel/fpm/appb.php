<?php

// Application B's front controller: cache.prefix "appb" (see app.php).

(require __DIR__ . '/app.php')('appb');
