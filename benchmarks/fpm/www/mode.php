<?php
// How this worker is set up, and the mode Shm\Table runs in: ini_get('table.zero_copy') (false where the
// build has no such setting) and every entry of Shm\Table::stats() whose path names zero-copy, pinning,
// retired or copied memory.
header('Content-Type: application/json');
function matching(array $stats, string $prefix = ''): array
{
    $out = [];
    foreach ($stats as $k => $v) {
        $path = $prefix . $k;
        if (preg_match('/zero_copy|pin|retired|copied/i', $path)) {
            $out[$path] = $v;
        } elseif (is_array($v)) {
            $out += matching($v, "$path.");
        }
    }
    return $out;
}
echo json_encode([
    'pid' => getmypid(),
    'ini' => php_ini_loaded_file(),
    'scanned' => php_ini_scanned_files(),
    'table' => extension_loaded('table'),
    'apcu' => function_exists('apcu_enabled') && apcu_enabled(),
    'opcache' => function_exists('opcache_get_status') && (opcache_get_status(false)['opcache_enabled'] ?? false),
    'apc.serializer' => ini_get('apc.serializer'),
    'table.serializer' => ini_get('table.serializer'),
    'table.zero_copy' => ini_get('table.zero_copy'),
    'stats' => matching(Shm\Table::stats()),
]), "\n";
