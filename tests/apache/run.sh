#!/usr/bin/env bash
# tests/apache/run.sh - mod_php of a thread-safe PHP under Apache's event MPM, on loopback: 2 processes of
# 16 threads each, all on one table (threads and processes mixed, as Apache's threaded MPMs run PHP).
#
#   bash tests/apache/run.sh PHP_CONFIG TABLE_SO [REQUESTS [CONCURRENCY]]      (20000 16)
#
# PHP_CONFIG is a ZTS PHP whose prefix has lib/apache2/mod_php.so (PHP_ZTS_APACHE=1 bash
# scripts/build-zts-php.sh), TABLE_SO a table.so built for it. Checks:
#   increments  REQUESTS requests at CONCURRENCY (ab), each one Shm\Table::increment(): exactly REQUESTS, and
#               the requests were served by both processes and by more than one thread of each
#   handoff     200 values, each written by one request and read back by another (new connections): all
#               read back, and written and read in more than one process and thread
#   timeout     a request that holds an array zero-copy (table.zero_copy=auto: on for apache2handler, under
#               threads too) and is then killed by max_execution_time leaves nothing held (stats:
#               held_entries 0, pins 0), while a request that holds one sees it held
# Installs apache2-bin and apache2-utils (ab) when missing, unless NO_INSTALL=1. Ends with
# `apache-threads: N passed, N failed`.
set -uo pipefail
cd "$(dirname "$0")/../.."
. scripts/lib.sh
PHP_CONFIG=${1:?usage: run.sh PHP_CONFIG TABLE_SO [REQUESTS [CONCURRENCY]]}
SO=$(cd "$(dirname "${2:?usage: run.sh PHP_CONFIG TABLE_SO}")" && pwd)/$(basename "$2")
REQUESTS=${3:-20000}
CONCURRENCY=${4:-16}
passed=0 failed=0
ok() { echo "ok   $*"; passed=$((passed + 1)); }
bad() { echo "FAIL $*"; failed=$((failed + 1)); }
finish() { echo "apache-threads: $passed passed, $failed failed"; [ "$failed" -eq 0 ]; exit; }

prefix=$("$PHP_CONFIG" --prefix)
MOD="$prefix/lib/apache2/mod_php.so"
[ -f "$MOD" ] || { bad "no $MOD: build it with PHP_ZTS_APACHE=1 bash scripts/build-zts-php.sh"; finish; }
[ "${NO_INSTALL:-0}" = 1 ] || apt_ensure apache2-bin apache2-utils curl
HTTPD=/usr/sbin/apache2
MODDIR=/usr/lib/apache2/modules
[ -x "$HTTPD" ] && command -v ab >/dev/null || { bad "needs apache2-bin and apache2-utils"; finish; }

dir=$(mktemp -d /tmp/table-apache.XXXXXX)
chmod 755 "$dir"
mkdir -p "$dir/www" "$dir/php"
cp "$SO" "$dir/table.so"
port=$("$prefix/bin/php" -n -r '$s = stream_socket_server("tcp://127.0.0.1:0"); echo substr(strrchr(stream_socket_get_name($s, false), ":"), 1);')
base="http://127.0.0.1:$port"
stop() {
	[ -f "$dir/httpd.pid" ] && "$HTTPD" -f "$dir/httpd.conf" -k stop >/dev/null 2>&1
	for _ in $(seq 1 50); do [ -f "$dir/httpd.pid" ] || break; sleep 0.2; done
}
trap 'stop; rm -rf "$dir"' EXIT

# The segment is made in Apache's parent (mod_php's MINIT), and both children inherit it.
cat >"$dir/php/php.ini" <<INI
extension=$dir/table.so
table.memory=64M
max_execution_time=30
display_errors=0
log_errors=1
error_log=$dir/php-error.log
INI
cat >"$dir/httpd.conf" <<CONF
ServerRoot "$dir"
DefaultRuntimeDir "$dir"
PidFile "$dir/httpd.pid"
Mutex file:$dir default
ServerName 127.0.0.1
Listen 127.0.0.1:$port
ErrorLog "$dir/error.log"
LogLevel warn
LoadModule mpm_event_module $MODDIR/mod_mpm_event.so
LoadModule authz_core_module $MODDIR/mod_authz_core.so
LoadModule php_module $MOD
User www-data
Group www-data
# Exactly 2 processes of 16 threads: the spare-thread bounds keep both, and never a third.
StartServers 2
ServerLimit 2
ThreadLimit 16
ThreadsPerChild 16
MinSpareThreads 32
MaxSpareThreads 32
MaxRequestWorkers 32
MaxConnectionsPerChild 0
KeepAlive Off
DocumentRoot "$dir/www"
<Directory "$dir/www">
	Require all granted
</Directory>
<FilesMatch "\.php\$">
	SetHandler application/x-httpd-php
</FilesMatch>
PHPIniDir "$dir/php"
CONF
# Each request says which process and thread served it (zend_thread_id(): a debug ZTS PHP's; 0 in another).
cat >"$dir/www/incr.php" <<'PHP'
<?php
$n = Shm\Table::increment('hits');
Shm\Table::set('served:' . getmypid() . ':' . (function_exists('zend_thread_id') ? zend_thread_id() : 0), 1, 0, 'who');
printf('%020d', $n);   // one length for every answer: ab counts another length as a failed request
PHP
cat >"$dir/www/put.php" <<'PHP'
<?php
Shm\Table::set('handoff:' . $_GET['k'], ['v' => $_GET['v'], 'by' => getmypid() . ':' . (function_exists('zend_thread_id') ? zend_thread_id() : 0)]);
echo getmypid(), ':', (function_exists('zend_thread_id') ? zend_thread_id() : 0);
PHP
cat >"$dir/www/get.php" <<'PHP'
<?php
echo json_encode(['got' => Shm\Table::get('handoff:' . $_GET['k']), 'by' => getmypid() . ':' . (function_exists('zend_thread_id') ? zend_thread_id() : 0)]);
PHP
cat >"$dir/www/state.php" <<'PHP'
<?php
$s = Shm\Table::stats();
$who = [];
foreach (Shm\Table::keys('served:*', 'who') as $k) { $who[] = substr($k, 7); }
echo json_encode(['hits' => Shm\Table::get('hits'), 'held_entries' => $s['held_entries'], 'pins' => $s['pins'],
	'processes' => $s['processes'], 'slots_used' => $s['slots_used'], 'who' => $who]);
PHP
cat >"$dir/www/hold.php" <<'PHP'
<?php
// A zero-copy read holds its entry until the request ends; then, when asked, spin until the time limit.
Shm\Table::set('array', range(1, 100));
$a = Shm\Table::get('array');
$held = Shm\Table::stats()['held_entries'];
if (!isset($_GET['spin'])) { echo json_encode(['held_entries' => $held, 'sum' => array_sum($a)]); return; }
set_time_limit(1);
for (;;) { $a[0]; }
PHP
chmod -R a+rX "$dir"
touch "$dir/php-error.log" && chown www-data "$dir/php-error.log"   # the children run as www-data

"$HTTPD" -f "$dir/httpd.conf" -k start 2>"$dir/start.err" || { bad "apache did not start: $(cat "$dir/start.err")"; finish; }
for _ in $(seq 1 100); do curl -fs "$base/state.php" >/dev/null 2>&1 && break; sleep 0.2; done
curl -fs "$base/state.php" >/dev/null || { bad "apache does not answer on $base: $(tail -n 5 "$dir/error.log")"; finish; }
json() { "$prefix/bin/php" -n -r "\$j = json_decode(stream_get_contents(STDIN), true); echo $1;"; }

# --- increments ---------------------------------------------------------------------------------------
ab -q -n "$REQUESTS" -c "$CONCURRENCY" "$base/incr.php" >"$dir/ab.out" 2>&1
abfail=$(sed -nE 's/^Failed requests:[[:space:]]+([0-9]+).*/\1/p' "$dir/ab.out")
non2xx=$(sed -nE 's/^Non-2xx responses:[[:space:]]+([0-9]+).*/\1/p' "$dir/ab.out")
state=$(curl -fs "$base/state.php")
hits=$(json '$j["hits"]' <<<"$state")
procs=$(json 'count(array_unique(array_map(fn($w) => explode(":", $w)[0], $j["who"])))' <<<"$state")
threads=$(json 'count($j["who"])' <<<"$state")
if [ "$hits" = "$REQUESTS" ] && [ "${abfail:-1}" = 0 ] && [ -z "$non2xx" ]; then
	ok "increments: $REQUESTS requests at concurrency $CONCURRENCY counted exactly $hits"
else
	bad "increments: counted ${hits:-?} of $REQUESTS (ab: ${abfail:-?} failed, ${non2xx:-0} non-2xx; $(grep -m1 -E 'Complete requests' "$dir/ab.out"))"
fi
if [ "$procs" = 2 ] && { [ "$threads" -gt 2 ] || json '$j["who"][0]' <<<"$state" | grep -q ':0$'; }; then
	ok "increments: served by $procs processes, $threads threads in all"
else
	bad "increments: served by $procs processes and $threads threads (want 2 processes, more than 2 threads)"
fi

# --- handoff ------------------------------------------------------------------------------------------
lost=0 crossp=0 crosst=0
for i in $(seq 1 200); do
	w=$(curl -fs "$base/put.php?k=$i&v=value$i")
	r=$(curl -fs "$base/get.php?k=$i")
	got=$(json '$j["got"]["v"] ?? "null"' <<<"$r")
	rby=$(json '$j["by"]' <<<"$r")
	[ "$got" = "value$i" ] || lost=$((lost + 1))
	[ "${w%%:*}" != "${rby%%:*}" ] && crossp=$((crossp + 1))
	[ "$w" != "$rby" ] && crosst=$((crosst + 1))
done
if [ $lost = 0 ] && [ $crossp -gt 0 ] && [ $crosst -gt 0 ]; then
	ok "handoff: 200 values written by one request, read by another: all read ($crossp across processes, $crosst across threads)"
else
	bad "handoff: $lost of 200 not read back; $crossp read in another process, $crosst in another thread"
fi

# --- timeout ------------------------------------------------------------------------------------------
held=$(curl -fs "$base/hold.php" | json '$j["held_entries"]')
curl -s -o /dev/null "$base/hold.php?spin=1"   # killed by max_execution_time (1 s): a fatal error
state=$(curl -fs "$base/state.php")
after=$(json '$j["held_entries"] . " " . $j["pins"]' <<<"$state")
if [ "${held:-0}" -ge 1 ] && [ "$after" = "0 0" ] && grep -q 'Maximum execution time' "$dir/php-error.log" 2>/dev/null; then
	ok "timeout: a request held $held entry zero-copy; one killed by max_execution_time while holding left nothing held"
else
	bad "timeout: held during a request: ${held:-?}; after a timed-out one: held_entries and pins $after; $(grep -m1 'Maximum execution' "$dir/php-error.log" 2>/dev/null || echo 'no timeout in the PHP log')"
fi

# Nothing went wrong in Apache's or PHP's logs (a child crash shows as "exit signal").
if grep -qE 'exit signal|AH00052|Segmentation|zend_mm_heap corrupted' "$dir/error.log"; then
	bad "apache's error log: $(grep -m3 -E 'exit signal|AH00052|Segmentation|zend_mm_heap' "$dir/error.log")"
else
	ok "no child crashed (apache's error log)"
fi
stop
finish
