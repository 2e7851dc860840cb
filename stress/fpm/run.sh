#!/usr/bin/env bash
# stress/fpm/run.sh - Shm\Table in a real php-fpm behind nginx, driven by ab and wrk over loopback.
#
#   bash stress/fpm/run.sh /abs/path/to/table.so        (or TABLE_SO=... bash stress/fpm/run.sh)
#
# Starts its own php-fpmX.Y (the one of the `php` on PATH; pm = static, 4 workers in pool "www", 1 in pool "other", its own php.ini and
# no scanned ini dir, zend.signal_check=1) and its own nginx, both on free 127.0.0.1 ports, in a temporary
# directory, and checks:
#   1. exact counting: `ab -n N -c 8` against a script that does Shm\Table::increment('hits'): the counter
#      equals the number of requests ab completed, and at least 2 worker pids served them
#   2. wrk for a few seconds: the counter equals what wrk counted, plus at most the requests in flight
#      when it stopped (one per connection)
#   3. the two pools of the master share one table
#   4. a fatal error inside remember()'s callback: later remember() calls of that key, from any worker
#      (including the one that died in the callback, which FPM keeps), do not wait out the 10 s claim bound
#   5. request_terminate_timeout: FPM SIGTERMs workers in the middle of table calls; the table stays
#      consistent and every stripe writable
#   6. SIGUSR1 (reopen logs) and SIGUSR2 (graceful reload): what happens to the table's contents
#   7. the FPM error log holds nothing but the expected lines (every accepted pattern is listed below),
#      the PHP error log nothing but the one expected fatal error, and no zend_signal warning anywhere
#   8. named segments: a second php-fpm configuration (behind the same nginx, on the same ports) whose
#      pools seg-a and seg-b name two segments (php_admin_value[table.segment] = pool-a / pool-b, and
#      table.segment_dir a temporary directory): what is set through one pool is not seen through the
#      other; php-fpm is stopped completely (master and workers gone, no process maps either file) and
#      started again, and each pool still reads what it wrote, from the same segment; a CLI
#      (php -n -d extension=... -d table.segment=pool-a ...) reads what seg-a's workers wrote and not
#      seg-b's, and what it writes is read through seg-a; both logs hold nothing unexpected. Then, while it
#      runs, `rm` of pool-a's file: a second later a value set through seg-a is read by every worker of
#      the pool (each answered), all on the same path, a CLI reads it too, and no process maps the removed
#      file any more (issue 33, finding 6). Last, an upgrade: a build of the previous layout
#      (-DTBL_LAYOUT_VERSION=5, built here unless TABLE_SO_PREVIOUS names one) serves both pools on
#      segments of its own, php.ini is pointed at the current table.so and the master reloaded (SIGUSR2):
#      the new workers replace each segment at once (one line per segment in the PHP error log), serve,
#      agree, and nothing maps an old file
#   9. (as root) pools of two users on one master, on its anonymous table: pool user-a runs as
#      table-fpm-a, user-b as table-fpm-b (made with useradd when missing); each writes under the same
#      names, and each pool's workers see their own entries and nothing of the other's through get,
#      getMany, keys, fullscan, namespaces and stats (binding/php_table_users.c)
#
# It installs what it needs (phpX.Y-fpm nginx apache2-utils wrk curl) unless NO_INSTALL=1, stops every
# process it started and removes the segment files (trap), and ends with `fpm: N passed, N failed`; exit
# status 1 on any failure.
# Environment: FPM_REQUESTS (ab requests, default 4000), FPM_WRK_SECONDS (default 5), KEEP=1 keeps the
# temporary directory (configs and logs) for inspection; it is always kept when a check failed.
# Load: every wait below is for an event, with a deadline far past what a busy machine needs (it only
# catches a hang); no check bounds how long something took, save the one whose bug is a wait (4.), and
# request_terminate_timeout (10 s, which every request but spin.php's ends well within) is the only bound
# FPM puts on a request.
set -uo pipefail
{
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
FPM_LIB_NAME=fpm
. "$ROOT/scripts/fpm-lib.sh"

SO=${1:-${TABLE_SO:-}}
if [ -z "$SO" ] || [ ! -f "$SO" ]; then
	echo "usage: bash stress/fpm/run.sh /abs/path/to/table.so   (or TABLE_SO=...)${SO:+; no such file: $SO}"
	bad "table.so given"
	finish
fi
SO=$(realpath "$SO")

# --- tools ---------------------------------------------------------------------------------------------
if [ "${NO_INSTALL:-0}" != 1 ]; then
	if ! ( . "$ROOT/scripts/lib.sh" && apt_ensure $(php_deb_pkgs fpm cli) nginx apache2-utils wrk curl ); then
		bad "installing php-fpm nginx apache2-utils wrk curl"
		finish
	fi
fi
fpm_find_bins
for t in "$FPM_BIN" "$NGINX_BIN" "$(command -v ab)" "$(command -v wrk)" "$(command -v curl)" "$(command -v php)"; do
	if [ -z "$t" ]; then
		bad "tools present (php-fpm, nginx, ab, wrk, curl, php; NO_INSTALL=1 was given?)"
		finish
	fi
done

DIR=$(mktemp -d /tmp/table-fpm.XXXXXX)
SEGDIR=""   # part 8's segment directory: removed whatever happened (its files are the size of the table)
cleanup() {
	fpm_cleanup
	if [ -n "$SEGDIR" ]; then rm -rf "$SEGDIR"; fi
}
trap cleanup EXIT
trap 'echo "fpm: interrupted"; exit 1' INT TERM

FPM_PORT=$(fpm_free_port)
FPM_PORT2=$(fpm_free_port)
while [ "$FPM_PORT2" = "$FPM_PORT" ]; do FPM_PORT2=$(fpm_free_port); done
HTTP_PORT=$(fpm_free_port)
while [ "$HTTP_PORT" = "$FPM_PORT" ] || [ "$HTTP_PORT" = "$FPM_PORT2" ]; do HTTP_PORT=$(fpm_free_port); done
URL="http://127.0.0.1:$HTTP_PORT"
mkdir -p "$DIR/www" "$DIR/tmp" "$DIR/other"
cp "$HERE"/www/*.php "$DIR/www/"
cp "$HERE"/www/info.php "$HERE"/www/kv.php "$HERE"/www/segment.php "$DIR/other/"

ROOT_USER=0
[ "$(id -u)" -eq 0 ] && ROOT_USER=1

cat >"$DIR/php.ini" <<EOF
extension=$SO
table.memory=32M
zend.signal_check=1
display_errors=0
display_startup_errors=0
log_errors=1
error_log=$DIR/php-error.log
error_reporting=E_ALL
max_execution_time=30
EOF

pool() { # name port children
	cat <<EOF
[$1]
$([ $ROOT_USER = 1 ] && printf 'user = root\ngroup = root')
listen = 127.0.0.1:$2
pm = static
pm.max_children = $3
catch_workers_output = yes
decorate_workers_output = no
clear_env = no
env[FPM_POOL] = $1
request_terminate_timeout = 10s
EOF
}
{
	cat <<EOF
[global]
pid = $DIR/fpm.pid
error_log = $DIR/fpm-error.log
log_level = notice
daemonize = no
EOF
	pool www "$FPM_PORT" 4
	pool other "$FPM_PORT2" 1
} >"$DIR/fpm.conf"

cat >"$DIR/nginx.conf" <<EOF
$([ $ROOT_USER = 1 ] && echo 'user root root;')
worker_processes 1;
pid $DIR/nginx.pid;
error_log $DIR/nginx-error.log warn;
events { worker_connections 512; }
http {
    access_log off;
    client_body_temp_path $DIR/tmp/body;
    fastcgi_temp_path $DIR/tmp/fastcgi;
    proxy_temp_path $DIR/tmp/proxy;
    uwsgi_temp_path $DIR/tmp/uwsgi;
    scgi_temp_path $DIR/tmp/scgi;
    server {
        listen 127.0.0.1:$HTTP_PORT;
        location /other/ {
            root $DIR;
            fastcgi_pass 127.0.0.1:$FPM_PORT2;
            fastcgi_param SCRIPT_FILENAME \$document_root\$fastcgi_script_name;
            fastcgi_param QUERY_STRING \$query_string;
            fastcgi_param REMOTE_ADDR \$remote_addr;
            fastcgi_param REQUEST_METHOD \$request_method;
            fastcgi_param REQUEST_URI \$request_uri;
            fastcgi_param SCRIPT_NAME \$fastcgi_script_name;
        }
        location / {
            root $DIR/www;
            # No FastCGI keepalive: FPM counts an idle kept-alive connection as a request in progress, and
            # request_terminate_timeout would then terminate idle workers (script '' (request: " ")).
            fastcgi_pass 127.0.0.1:$FPM_PORT;
            fastcgi_param SCRIPT_FILENAME \$document_root\$fastcgi_script_name;
            fastcgi_param QUERY_STRING \$query_string;
            fastcgi_param REMOTE_ADDR \$remote_addr;
            fastcgi_param REQUEST_METHOD \$request_method;
            fastcgi_param REQUEST_URI \$request_uri;
            fastcgi_param SCRIPT_NAME \$fastcgi_script_name;
        }
    }
}
EOF

# --- start ---------------------------------------------------------------------------------------------
echo "fpm: $FPM_BIN (pools www:$FPM_PORT x4, other:$FPM_PORT2 x1) behind nginx on $URL; module $SO; logs in $DIR"
FPM_ARGS=(-F -y "$DIR/fpm.conf" -c "$DIR/php.ini")
[ $ROOT_USER = 1 ] && FPM_ARGS+=(-R)
# No scanned ini dir: only our php.ini (so no system extension, e.g. APCu, is loaded).
PHP_INI_SCAN_DIR= "$FPM_BIN" "${FPM_ARGS[@]}" >"$DIR/fpm-stdout.log" 2>&1 &
FPM_PID=$!
"$NGINX_BIN" -p "$DIR" -c "$DIR/nginx.conf" -e "$DIR/nginx-error.log" -g 'daemon off;' >"$DIR/nginx-stdout.log" 2>&1 &
NGINX_PID=$!

ready_count() { local n; n=$(grep -c 'ready to handle connections' "$DIR/fpm-error.log" 2>/dev/null); echo "${n:-0}"; }
fpm_children() { pgrep -P "$FPM_PID" 2>/dev/null | tee "$DIR/fpm-children" | sort; }
get() { curl -s -m 30 "$URL/$1"; }
# json FIELD <<<"$JSON": a field of a JSON object; strings raw, null/true/false as words, arrays as JSON
json() { php -n -r '$v = json_decode(stream_get_contents(STDIN), true)[$argv[1]] ?? null; echo match (true) { $v === null => "null", is_bool($v) => ($v ? "true" : "false"), is_scalar($v) => $v, default => json_encode($v) };' "$1"; }

if ! fpm_wait_for 60 '[ "$(ready_count)" -ge 1 ] && curl -s -o /dev/null -m 2 -w "%{http_code}" "$URL/info.php" | grep -q 200'; then
	bad "php-fpm and nginx start and serve info.php" "$(tail -n 5 "$DIR/fpm-error.log" "$DIR/fpm-stdout.log" "$DIR/nginx-error.log" 2>/dev/null | tr '\n' ' ')"
	finish
fi
pgrep -P "$NGINX_PID" >"$DIR/nginx-children" 2>/dev/null
MASTER_EXE=$(readlink "/proc/$FPM_PID/exe")
INFO=$(get info.php)
check '[ "$(json ini <<<"$INFO")" = "$DIR/php.ini" ] && [ "$(json scanned <<<"$INFO")" = false ] && [ "$(json signal_check <<<"$INFO")" = 1 ]' \
	"workers run with our php.ini only (no scanned ini dir) and zend.signal_check=1" "$INFO"
echo "  ($(fpm_children | wc -l) FPM workers; master pid $FPM_PID)"

# --- 1. exact counting with ab ------------------------------------------------------------------------
N=${FPM_REQUESTS:-4000}
get 'kv.php?op=reset' >/dev/null
ab -q -n "$N" -c 8 -s 60 "$URL/hit.php" >"$DIR/ab.txt" 2>&1
COMPLETE=$(sed -n 's/^Complete requests: *\([0-9]*\).*/\1/p' "$DIR/ab.txt")
FAILED=$(sed -n 's/^Failed requests: *\([0-9]*\).*/\1/p' "$DIR/ab.txt")
NON2XX=$(sed -n 's/^Non-2xx responses: *\([0-9]*\).*/\1/p' "$DIR/ab.txt")
INFO=$(get info.php)
HITS=$(json hits <<<"$INFO")
PIDSUM=$(php -n -r 'echo array_sum(json_decode($argv[1], true)["pids"]);' "$INFO")
NPIDS=$(php -n -r 'echo count(json_decode($argv[1], true)["pids"]);' "$INFO")
echo "  ab: $COMPLETE complete, ${FAILED:-?} failed, ${NON2XX:-0} non-2xx; counter $HITS; $NPIDS worker pids served them"
check '[ "$COMPLETE" = "$N" ] && [ "$FAILED" = 0 ] && [ -z "$NON2XX" ]' "ab: all $N requests completed with 200" "$(grep -E 'requests|responses' "$DIR/ab.txt" | tr '\n' ' ')"
check '[ "$HITS" = "$N" ] && [ "$PIDSUM" = "$N" ]' "ab: the shared counter equals the requests served exactly ($N), and so does the sum of the per-worker counters" "counter $HITS, per-worker sum $PIDSUM"
check '[ "$NPIDS" -ge 2 ]' "ab: at least 2 distinct worker pids served requests" "$NPIDS"

# --- 2. wrk ----------------------------------------------------------------------------------------------
get 'kv.php?op=reset' >/dev/null
WS=${FPM_WRK_SECONDS:-5}
# --timeout past the run: a response that is only slow is not an error, and each of the 8 connections has
# at most one request in flight when wrk stops
wrk -t2 -c8 -d"${WS}s" --timeout 30s "$URL/hit.php" >"$DIR/wrk.txt" 2>&1
WRK_N=$(sed -n 's/^ *\([0-9][0-9]*\) requests in .*/\1/p' "$DIR/wrk.txt")
WRK_ERR=$(grep -E 'Non-2xx|Socket errors' "$DIR/wrk.txt" | tr '\n' ' ')
# Let the requests in flight when wrk stopped finish: wait until one reading shows the counter equal to the
# sum of the per-worker counters and unchanged since the reading before (a request still running between its
# two increments would show them apart). Counts that never agree (a lost increment) fail the check below.
settled() {
	INFO=$(get info.php)
	HITS=$(json hits <<<"$INFO")
	PIDSUM=$(php -n -r 'echo array_sum(json_decode($argv[1], true)["pids"] ?? []);' "$INFO")
	[ "$HITS" = "$PIDSUM" ] && [ "$HITS" = "$prev" ] || { prev=$HITS; false; }
}
prev=-1
fpm_wait_for 30 settled
NPIDS=$(php -n -r 'echo count(json_decode($argv[1], true)["pids"]);' "$INFO")
echo "  wrk: $WRK_N requests in ${WS}s ($(sed -n 's/^Requests\/sec: *//p' "$DIR/wrk.txt") req/s); counter $HITS; $NPIDS worker pids"
check '[ -n "$WRK_N" ] && [ -z "$WRK_ERR" ] && [ "$WRK_N" -gt 100 ]' "wrk: requests served without errors" "$WRK_ERR$(tail -n 3 "$DIR/wrk.txt" | tr '\n' ' ')"
check '[ -n "$WRK_N" ] && [ "$HITS" -ge "$WRK_N" ] && [ "$HITS" -le $((WRK_N + 8)) ] && [ "$PIDSUM" = "$HITS" ]' \
	"wrk: the counter equals the responses wrk counted, plus at most the 8 in flight when it stopped" "counter $HITS, wrk $WRK_N, per-worker sum $PIDSUM"
check '[ "$NPIDS" -ge 2 ]' "wrk: at least 2 distinct worker pids served requests" "$NPIDS"

# --- 3. the pools of one master share the table -------------------------------------------------------
TOKEN="t$RANDOM$RANDOM"
get "kv.php?op=set&k=shared&v=$TOKEN" >/dev/null
OTHER=$(get "other/kv.php?op=get&k=shared")
check '[ "$(json value <<<"$OTHER")" = "$TOKEN" ]' "a value set through pool www is read through pool other (one segment per master)" "$OTHER"

# --- 4. a fatal error inside remember()'s callback ------------------------------------------------------
CODE=$(curl -s -o "$DIR/fatal.out" -m 30 -w '%{http_code}' "$URL/remember.php?fatal=1")
slow=0
vals=""
for i in $(seq 1 12); do
	R=$(get remember.php)
	ms=$(json ms <<<"$R")
	# The bug is a wait for the claim's 10 s bound: such a call takes 10 s or more (or is terminated at
	# request_terminate_timeout, and answers no JSON). Any call quicker than the bound did not wait for it.
	[[ "$ms" =~ ^[0-9]+$ ]] && [ "$ms" -lt 10000 ] || slow=$((slow + 1))
	vals="$vals$(json value <<<"$R")"$'\n'
done
NVALS=$(printf '%s' "$vals" | sort -u | grep -c .)
check '[ "$CODE" = 500 ]' "remember.php?fatal=1 ends its request with the fatal error (HTTP 500)" "HTTP $CODE"
check '[ "$slow" = 0 ] && [ "$NVALS" = 1 ]' "after it, 12 remember() calls of that key over all workers return without waiting out the 10 s claim bound and agree on one value" "$slow waited (or failed), $NVALS distinct values: $(printf '%s' "$vals" | sort -u | tr '\n' ' ')"

# --- 5. request_terminate_timeout SIGTERMs workers mid-operation -------------------------------------
BEFORE_SPIN=$(wc -l <"$DIR/fpm-error.log")
CURLS=()
for i in 1 2; do
	curl -s -o /dev/null -m 60 "$URL/spin.php" &
	CURLS+=($!)
done
fpm_wait_for 60 '[ "$(grep -c "spin.php.*execution timed out" "$DIR/fpm-error.log")" -ge 2 ] && [ "$(grep -c "exited on signal 15" "$DIR/fpm-error.log")" -ge 2 ]'
wait "${CURLS[@]}" 2>/dev/null
TIMEDOUT=$(grep -c 'execution timed out' "$DIR/fpm-error.log")
fpm_wait_for 30 '[ "$(fpm_children | wc -l)" -ge 5 ]'
CHECKS=""
allgood=1
for i in $(seq 1 8); do
	C=$(get check.php)
	CHECKS="$CHECKS $C"
	[ "$(json consistent <<<"$C")" = true ] && [ "$(json write_failures <<<"$C")" = 0 ] || allgood=0
done
echo "  request_terminate_timeout killed $TIMEDOUT spinning workers; lock repairs so far: $(json lock_repairs <<<"$C")"
check '[ "$TIMEDOUT" = 2 ]' "FPM terminated the 2 workers spinning in table calls, and no other (request_terminate_timeout = 10s)" "$TIMEDOUT terminated"
check '[ $allgood = 1 ]' "after that, every worker finds the table consistent and writes 1,024 keys over every stripe" "$CHECKS"

# --- 6. SIGUSR1 and SIGUSR2 -----------------------------------------------------------------------------
get "kv.php?op=set&k=before-usr1&v=kept" >/dev/null
OLD_CHILDREN=$(fpm_children | tr '\n' ' ')
kill -USR1 "$FPM_PID"
sleep 1
fpm_wait_for 30 '[ "$(fpm_children | wc -l)" -ge 5 ] && curl -s -o /dev/null -m 2 -w "%{http_code}" "$URL/info.php" | grep -q 200'
NEW_CHILDREN=$(fpm_children | tr '\n' ' ')
USR1=$(get "kv.php?op=get&k=before-usr1")
echo "  SIGUSR1: workers before [$OLD_CHILDREN] after [$NEW_CHILDREN]; before-usr1 = $(json value <<<"$USR1")"
check '[ "$(json value <<<"$USR1")" = kept ]' "SIGUSR1 (reopen logs): the table keeps its contents" "$USR1"

get "kv.php?op=set&k=before-usr2&v=kept" >/dev/null
READY_BEFORE=$(ready_count)
OLD_CHILDREN=$(fpm_children | tr '\n' ' ')
kill -USR2 "$FPM_PID"
fpm_wait_for 60 '[ "$(ready_count)" -gt "$READY_BEFORE" ] && [ "$(fpm_children | wc -l)" -ge 5 ] && curl -s -o /dev/null -m 2 -w "%{http_code}" "$URL/info.php" | grep -q 200'
NEW_CHILDREN=$(fpm_children | tr '\n' ' ')
USR2=$(get "kv.php?op=get&k=before-usr2")
USR2_OTHER=$(get "other/kv.php?op=get&k=before-usr2")
INFO=$(get info.php)
echo "  SIGUSR2: master $FPM_PID ($(readlink "/proc/$FPM_PID/exe" 2>/dev/null)) workers before [$OLD_CHILDREN] after [$NEW_CHILDREN]; before-usr2 = $(json value <<<"$USR2"); entries now $(json entries <<<"$INFO")"
common=0
for p in $NEW_CHILDREN; do [[ " $OLD_CHILDREN " == *" $p "* ]] && common=$((common + 1)); done
check 'kill -0 "$FPM_PID" 2>/dev/null && [ "$(readlink "/proc/$FPM_PID/exe")" = "$MASTER_EXE" ] && [ "$common" = 0 ] && [ "$(ready_count)" -gt "$READY_BEFORE" ]' \
	"SIGUSR2 re-executes the master in place (same pid) and starts all new workers" "pid alive: $(kill -0 "$FPM_PID" 2>/dev/null && echo yes || echo no), $common old workers left"
check '[ "$(json value <<<"$USR2")" = null ] && [ "$(json value <<<"$USR2_OTHER")" = null ]' \
	"SIGUSR2: the re-executed master runs MINIT again and maps a new, empty table: the old contents are gone, in every pool" "$USR2 $USR2_OTHER"
get 'kv.php?op=reset' >/dev/null
ab -q -n 400 -c 8 -s 60 "$URL/hit.php" >"$DIR/ab2.txt" 2>&1
HITS=$(json hits <<<"$(get info.php)")
check '[ "$HITS" = 400 ]' "after the reload the new table counts exactly again (400 of 400)" "counter $HITS"

# --- 7. stop, then read the logs ----------------------------------------------------------------------
# alive_of PID...: those of the pids that are still processes of this php-fpm binary
alive_of() { local p; for p in "$@"; do [ "$(readlink "/proc/$p/exe" 2>/dev/null)" = "$MASTER_EXE" ] && echo "$p"; done; }
OLD_CHILDREN=$(fpm_children | tr '\n' ' ')
kill -QUIT "$FPM_PID"
fpm_wait_for 30 '! kill -0 "$FPM_PID" 2>/dev/null'
check '! kill -0 "$FPM_PID" 2>/dev/null' "SIGQUIT stops php-fpm gracefully (a hang: not within 30 s)"
wait "$FPM_PID" 2>/dev/null
FPM_PID=""
# Its workers are gone with it: forget their pids, which the cleanup would otherwise SIGKILL, whatever
# process has them by then.
[ -z "$(alive_of $OLD_CHILDREN)" ] && : >"$DIR/fpm-children"

# Every line of the FPM error log must be one of these (after the "[date] " prefix). Lines before the
# spin phase and after it may only be the normal lifecycle notices; the spin phase adds FPM's own
# warnings about the two workers it terminated, and nothing else. "failed to acquire scoreboard" is FPM's
# own notice when its master's non-blocking try for the scoreboard lock meets a worker holding it (seen on
# php-fpm 8.4 under load): a lock of FPM's, not of the table's.
LIFECYCLE='^NOTICE: (failed to acquire scoreboard|fpm is running, pid [0-9]+|ready to handle connections|systemd monitor interval set to [0-9]+ms|Reloading in progress \.\.\.|reloading: execvp\(.*\)|using inherited socket fd=[0-9]+, "127\.0\.0\.1:[0-9]+"|Finishing \.\.\.|Terminating \.\.\.|exiting, bye-bye!|error log file re-opened|\[pool (www|other)\] child [0-9]+ started|\[pool (www|other)\] child [0-9]+ exited (with code 0|on signal (3 \(SIGQUIT\)|15 \(SIGTERM\))) after [0-9.]+ seconds from start)$'
SPIN='^WARNING: \[pool www\] child [0-9]+, script '"'"'[^'"'"']*/spin\.php'"'"' \(request: "GET /spin\.php"\) execution timed out \([0-9.]+ sec\), terminating$|^WARNING: \[pool www\] child [0-9]+ exited on signal 15 \(SIGTERM\) after [0-9.]+ seconds from start$'
UNEXPECTED=$(awk -v from="$BEFORE_SPIN" '{ print (NR > from ? "S " : "N ") $0 }' "$DIR/fpm-error.log" | sed -E 's/^([NS]) \[[^]]*\] /\1 /' |
	while IFS= read -r line; do
		phase=${line%% *} msg=${line#? }
		[[ "$msg" =~ $LIFECYCLE ]] && continue
		[ "$phase" = S ] && [[ "$msg" =~ $SPIN ]] && continue
		echo "$msg"
	done)
check '[ -z "$UNEXPECTED" ]' "the FPM error log holds only lifecycle notices and the two expected request_terminate_timeout warnings" "$(head -n 5 <<<"$UNEXPECTED" | tr '\n' '|')"
check '! grep -q zend_signal "$DIR"/*.log' "no zend_signal warning anywhere (zend.signal_check=1)" "$(grep -h zend_signal "$DIR"/*.log | head -n 3)"
PHPERR=$(grep -v 'PHP Fatal error:  Cannot redeclare .*fatal_inside_remember_expected_by_stress_fpm()' "$DIR/php-error.log" 2>/dev/null | sed -E 's/^\[[^]]*\] //')
NFATAL=$(grep -c 'Cannot redeclare .*fatal_inside_remember_expected_by_stress_fpm()' "$DIR/php-error.log" 2>/dev/null)
check '[ -z "$PHPERR" ] && [ "$NFATAL" = 1 ]' "the PHP error log holds only the one expected fatal error" "${NFATAL:-0} expected fatal(s); other lines: $(head -n 5 <<<"$PHPERR" | tr '\n' '|')"
NGX=$(grep -E '\[(emerg|alert|crit)\]' "$DIR/nginx-error.log" 2>/dev/null | head -n 3)
check '[ -z "$NGX" ]' "nginx logged no emerg/alert/crit" "$NGX"

# --- 8. named segments: two pools, two names; a full restart; a CLI on one of them ---------------------
# A second configuration on the same ports, so the same nginx serves it: seg-a at /, seg-b at /other/.
SEGDIR=$(mktemp -d /dev/shm/table-fpm-seg.XXXXXX 2>/dev/null || mktemp -d /tmp/table-fpm-seg.XXXXXX)
SEG_MEMORY=8M
sed -e "s|^error_log=.*|error_log=$DIR/php-named-error.log|" -e "s|^table.memory=.*|table.memory=$SEG_MEMORY|" \
	"$DIR/php.ini" >"$DIR/php-named.ini"
{
	cat <<EOF
[global]
pid = $DIR/fpm-named.pid
error_log = $DIR/fpm-named-error.log
log_level = notice
daemonize = no
EOF
	pool seg-a "$FPM_PORT" 2
	printf 'php_admin_value[table.segment] = pool-a\nphp_admin_value[table.segment_dir] = %s\n' "$SEGDIR"
	pool seg-b "$FPM_PORT2" 2
	printf 'php_admin_value[table.segment] = pool-b\nphp_admin_value[table.segment_dir] = %s\n' "$SEGDIR"
} >"$DIR/fpm-named.conf"
named_ready() { local n; n=$(grep -c 'ready to handle connections' "$DIR/fpm-named-error.log" 2>/dev/null); echo "${n:-0}"; }
# start_named: start php-fpm on the named configuration; status 0 once it is ready and both pools serve
start_named() {
	local before
	before=$(named_ready)
	PHP_INI_SCAN_DIR= "$FPM_BIN" -F -y "$DIR/fpm-named.conf" -c "$DIR/php-named.ini" $([ $ROOT_USER = 1 ] && echo -R) >>"$DIR/fpm-named-stdout.log" 2>&1 &
	FPM_PID=$!
	fpm_wait_for 60 '[ "$(named_ready)" -gt "$before" ] && curl -s -o /dev/null -m 2 -w "%{http_code}" "$URL/segment.php" | grep -q 200 && curl -s -o /dev/null -m 2 -w "%{http_code}" "$URL/other/segment.php" | grep -q 200'
}
# distinct FIELD...: of the JSON objects on stdin, one a line, the distinct values of FIELD... (joined by
# spaces; null, true, false as words), each followed by a comma, sorted: "v1,v2,"
distinct() { php -n -r '$seen = []; while (($l = fgets(STDIN)) !== false) { $o = json_decode($l, true); $seen[implode(" ", array_map(fn($f) => var_export($o[$f] ?? null, true), array_slice($argv, 1)))] = 1; } ksort($seen); foreach ($seen as $v => $_) echo str_replace(["'"'"'", "NULL"], ["", "null"], $v), ",";' "$@"; }
# values PATH: the distinct `value`s of 6 GETs of PATH (so that several workers answer)
values() { local i; for i in 1 2 3 4 5 6; do get "$1"; done | distinct value; }
# segments PATH: the distinct "segment_path segment_created start_time" of 6 GETs of PATH
segments() { local i; for i in 1 2 3 4 5 6; do get "$1"; done | distinct segment_path segment_created start_time; }
# isolated: the reads that tell the two pools' tables apart, as one line
isolated() {
	local k
	for k in iso only-a only-b; do printf 'a:%s=%s ' "$k" "$(values "kv.php?op=get&k=$k")"; done
	for k in iso only-b only-a; do printf 'b:%s=%s ' "$k" "$(values "other/kv.php?op=get&k=$k")"; done
}

# stop_fpm: SIGQUIT to the master; wait (30 s at most) for it and the workers it had; forget them when gone.
stop_fpm() {
	local children
	children=$(fpm_children | tr '\n' ' ')
	kill -QUIT "$FPM_PID"
	fpm_wait_for 30 '! kill -0 "$FPM_PID" 2>/dev/null && [ -z "$(alive_of '"$children"')" ]'
	wait "$FPM_PID" 2>/dev/null
	FPM_PID=""
	[ -z "$(alive_of $children)" ] && : >"$DIR/fpm-children"
}
# check_fpm_logs WHAT POOLS FPM_LOG PHP_LOG: FPM's log holds only lifecycle notices of the pools (a regex
# alternative, e.g. 'seg-a|seg-b') and PHP's log nothing.
check_fpm_logs() {
	local lifecycle=${LIFECYCLE//'(www|other)'/"($2)"} unexpected php_log=$4
	unexpected=$(sed -E 's/^\[[^]]*\] //' "$3" | while IFS= read -r msg; do [[ "$msg" =~ $lifecycle ]] || echo "$msg"; done)
	check '[ -z "$unexpected" ] && [ ! -s "$php_log" ]' "$1: the FPM error log holds only lifecycle notices, and the PHP error log nothing" \
		"$(head -n 5 <<<"$unexpected" | tr '\n' '|') $(head -n 5 "$php_log" 2>/dev/null | tr '\n' '|')"
}

if ! start_named; then
	bad "php-fpm with pools on named segments starts and serves both pools" "$(tail -n 5 "$DIR/fpm-named-error.log" "$DIR/fpm-named-stdout.log" 2>/dev/null | tr '\n' ' ')"
	finish
fi
echo "  named segments: master $FPM_PID, pool seg-a (table.segment=pool-a) at $URL/, seg-b (pool-b) at $URL/other/, in $SEGDIR"
SEG_A=$(for i in 1 2 3 4 5 6; do get segment.php; done | distinct segment_path start_time)   # whichever created it
SEG_B=$(for i in 1 2 3 4 5 6; do get other/segment.php; done | distinct segment_path start_time)
check '[ "${SEG_A% *}" = "$SEGDIR/php-table.pool-a" ] && [ "${SEG_B% *}" = "$SEGDIR/php-table.pool-b" ] && [ -f "$SEGDIR/php-table.pool-a" ] && [ -f "$SEGDIR/php-table.pool-b" ]' \
	"named: the workers of pool seg-a are on segment pool-a, those of seg-b on pool-b (php_admin_value per pool)" "seg-a: $SEG_A; seg-b: $SEG_B"

TOKA="a$RANDOM$RANDOM" TOKB="b$RANDOM$RANDOM"
get "kv.php?op=set&k=iso&v=$TOKA" >/dev/null
get "other/kv.php?op=set&k=iso&v=$TOKB" >/dev/null
get "kv.php?op=set&k=only-a&v=$TOKA" >/dev/null
get "other/kv.php?op=set&k=only-b&v=$TOKB" >/dev/null
EXPECT_ISO="a:iso=$TOKA, a:only-a=$TOKA, a:only-b=null, b:iso=$TOKB, b:only-b=$TOKB, b:only-a=null, "
ISO=$(isolated)
check '[ "$ISO" = "$EXPECT_ISO" ]' \
	"named: a value set through seg-a is not seen through seg-b, nor one set through seg-b through seg-a; one key holds each pool's own value" "got: $ISO; expected: $EXPECT_ISO"

# A full stop: the master gone, its workers gone, and no process left that maps either segment.
NAMED_CHILDREN=$(fpm_children | tr '\n' ' ')
OLD_MASTER=$FPM_PID
kill -QUIT "$FPM_PID"
fpm_wait_for 30 '! kill -0 "$FPM_PID" 2>/dev/null && [ -z "$(alive_of $NAMED_CHILDREN)" ]'
wait "$FPM_PID" 2>/dev/null
MAPPED=$(grep -ls "$SEGDIR/php-table" /proc/[0-9]*/maps 2>/dev/null | tr '\n' ' ')
check '! kill -0 "$OLD_MASTER" 2>/dev/null && [ -z "$(alive_of $NAMED_CHILDREN)" ] && [ -z "$MAPPED" ] && [ -f "$SEGDIR/php-table.pool-a" ] && [ -f "$SEGDIR/php-table.pool-b" ]' \
	"named: php-fpm stopped completely (SIGQUIT): master and workers gone, no process maps either segment, both files still there" \
	"master alive: $(kill -0 "$OLD_MASTER" 2>/dev/null && echo yes || echo no); workers alive: $(alive_of $NAMED_CHILDREN | tr '\n' ' '); mapped by: $MAPPED"
FPM_PID=""
[ -z "$(alive_of $NAMED_CHILDREN)" ] && : >"$DIR/fpm-children"

if ! start_named; then
	bad "php-fpm with pools on named segments starts again after the stop" "$(tail -n 5 "$DIR/fpm-named-error.log" "$DIR/fpm-named-stdout.log" 2>/dev/null | tr '\n' ' ')"
	finish
fi
ISO=$(isolated)
SEG_A2=$(segments segment.php)
SEG_B2=$(segments other/segment.php)
echo "  restarted: master $OLD_MASTER -> $FPM_PID; seg-a workers: $SEG_A2; seg-b workers: $SEG_B2"
check '[ "$FPM_PID" != "$OLD_MASTER" ] && [ "$ISO" = "$EXPECT_ISO" ]' \
	"named: after the restart (a new master) each pool reads what was written through it before, and still not what the other wrote" "got: $ISO; expected: $EXPECT_ISO"
check '[ "$SEG_A2" = "$SEGDIR/php-table.pool-a false ${SEG_A##* }" ] && [ "$SEG_B2" = "$SEGDIR/php-table.pool-b false ${SEG_B##* }" ]' \
	"named: the new workers attached to the same segments (none created one; each segment's start time unchanged)" "seg-a: $SEG_A2 (before: $SEG_A); seg-b: $SEG_B2 (before: $SEG_B)"

# A CLI started on its own on pool-a, while php-fpm runs.
TOKC="c$RANDOM$RANDOM"
CLI=$(php -n -d "extension=$SO" -d table.segment=pool-a -d "table.segment_dir=$SEGDIR" -d "table.memory=$SEG_MEMORY" -r '
	$st = Shm\Table::stats();
	echo json_encode(["iso" => Shm\Table::get("iso"), "only-a" => Shm\Table::get("only-a"), "only-b" => Shm\Table::get("only-b"),
		"segment_path" => $st["segment_path"], "segment_created" => $st["segment_created"],
		"set" => Shm\Table::set("from-cli", $argv[1])]);' "$TOKC" 2>&1)
echo "  CLI on pool-a: $CLI"
check '[ "$(json iso <<<"$CLI")" = "$TOKA" ] && [ "$(json only-a <<<"$CLI")" = "$TOKA" ] && [ "$(json only-b <<<"$CLI")" = null ] && [ "$(json segment_path <<<"$CLI")" = "$SEGDIR/php-table.pool-a" ] && [ "$(json segment_created <<<"$CLI")" = false ]' \
	"named: a CLI (php -n -d table.segment=pool-a) reads what seg-a's workers wrote, and not what seg-b's did" "$CLI"
FROM_A=$(values 'kv.php?op=get&k=from-cli')
FROM_B=$(values 'other/kv.php?op=get&k=from-cli')
check '[ "$(json set <<<"$CLI")" = true ] && [ "$FROM_A" = "$TOKC," ] && [ "$FROM_B" = "null," ]' \
	"named: a value the CLI wrote is read through pool seg-a (and not through seg-b)" "seg-a: $FROM_A seg-b: $FROM_B"

# every_worker PATH [WORKERS]: GET PATH, 4 at a time, until WORKERS (default 2, a named pool's size)
# distinct pids have answered (at most 25 rounds); every answer on stdout, one JSON object a line.
every_worker() {
	local round j pids
	: >"$DIR/every.out"
	for round in $(seq 1 25); do
		pids=()
		for j in 1 2 3 4; do get "$1" >"$DIR/every.$j" & pids+=($!); done
		wait "${pids[@]}"
		for j in 1 2 3 4; do cat "$DIR/every.$j"; done >>"$DIR/every.out"
		[ "$(distinct pid <"$DIR/every.out" | tr -cd , | wc -c)" -ge "${2:-2}" ] && break
	done
	cat "$DIR/every.out"
}
# mapped_removed DIR: the pids of processes that map a removed file of DIR
mapped_removed() { grep -ls -- "$1/php-table\..* (deleted)" /proc/[0-9]*/maps 2>/dev/null | cut -d/ -f3 | tr '\n' ' '; }

# rm of a segment while php-fpm runs (issue 33, finding 6): before, the workers attached kept the removed
# table for good while processes started later made a new file, and a pool's workers were split between
# the two. Each worker looks at most once a second, at the start of a request.
check '[ -z "$(mapped_removed "$SEGDIR")" ]' "named: before the rm, no process maps a removed segment file" "$(mapped_removed "$SEGDIR")"
rm "$SEGDIR/php-table.pool-a"
sleep 1.2
TOKR="r$RANDOM$RANDOM"
SET_R=$(get "kv.php?op=set&k=after-rm&v=$TOKR")
READ_R=$(every_worker "kv.php?op=get&k=after-rm")
PATHS_R=$(every_worker segment.php | distinct segment_path)
CLI_R=$(php -n -d "extension=$SO" -d table.segment=pool-a -d "table.segment_dir=$SEGDIR" -d "table.memory=$SEG_MEMORY" -r 'echo json_encode(["value" => Shm\Table::get("after-rm")]);' 2>&1)
echo "  after rm of pool-a: set $SET_R; workers read $(distinct value <<<"$READ_R") (pids $(distinct pid <<<"$READ_R")); paths $PATHS_R; CLI $CLI_R"
check '[ "$(json set <<<"$SET_R")" = true ] && [ "$(distinct value <<<"$READ_R")" = "$TOKR," ] && [ "$(distinct pid <<<"$READ_R" | tr -cd , | wc -c)" -ge 2 ] && [ "$(json value <<<"$CLI_R")" = "$TOKR" ]' \
	"named: after rm of pool-a's file, a value set through one request is read by every worker of seg-a (each answered) and by a new CLI" "set: $SET_R; reads: $(tr '\n' ' ' <<<"$READ_R"); CLI: $CLI_R"
check '[ "$PATHS_R" = "$SEGDIR/php-table.pool-a," ] && [ -f "$SEGDIR/php-table.pool-a" ] && [ -z "$(mapped_removed "$SEGDIR")" ]' \
	"named: every worker of seg-a is on the new file at the same path; no process maps the removed one any more" "paths: $PATHS_R; mapped by: $(mapped_removed "$SEGDIR")"
check '[ "$(values "other/kv.php?op=get&k=iso")" = "$TOKB," ]' "named: seg-b (pool-b, not removed) kept its table" "$(values "other/kv.php?op=get&k=iso")"

stop_fpm
check_fpm_logs named 'seg-a|seg-b' "$DIR/fpm-named-error.log" "$DIR/php-named-error.log"

# An upgrade whose segment layout differs, by a reload (what a package upgrade does): a build of the
# previous layout serves first, then php.ini names the current table.so and the master is reloaded. Before,
# the new workers refused the old segments (every call threw until someone removed the files or set
# table.segment_recreate=1); now each is replaced at once and the log says so.
PREV_SO=${TABLE_SO_PREVIOUS:-}
if [ -z "$PREV_SO" ]; then
	PREV_SO=$( ( . "$ROOT/scripts/lib.sh" && php_tools >/dev/null && table_build "$DIR/prev" 0 "-O2 -DTBL_LAYOUT_VERSION=5" >&2 && echo "$EXT_SO" ) 2>"$DIR/prev-build.log")
fi
UPDIR="$SEGDIR/upgrade"
mkdir -p "$UPDIR"
if [ -z "$PREV_SO" ] || [ ! -f "$PREV_SO" ]; then
	bad "named: a table.so of the previous layout is built for the upgrade (-DTBL_LAYOUT_VERSION=5)" "$(tail -n 5 "$DIR/prev-build.log" | tr '\n' ' ')"
else
	sed -e "s|^extension=.*|extension=$PREV_SO|" -e "s|^error_log=.*|error_log=$DIR/php-upgrade-error.log|" "$DIR/php-named.ini" >"$DIR/php-upgrade.ini"
	sed -e "s|$SEGDIR\$|$UPDIR|" -e "s|^pid = .*|pid = $DIR/fpm-upgrade.pid|" -e "s|^error_log = .*|error_log = $DIR/fpm-upgrade-error.log|" \
		"$DIR/fpm-named.conf" >"$DIR/fpm-upgrade.conf"
	upgrade_ready() { local n; n=$(grep -c 'ready to handle connections' "$DIR/fpm-upgrade-error.log" 2>/dev/null); echo "${n:-0}"; }
	layout_of() { php -n -r '$f = @fopen($argv[1], "r"); if (!$f) { echo "none"; exit; } fseek($f, 12); echo unpack("V", fread($f, 4))[1];' "$1"; }
	PHP_INI_SCAN_DIR= "$FPM_BIN" -F -y "$DIR/fpm-upgrade.conf" -c "$DIR/php-upgrade.ini" $([ $ROOT_USER = 1 ] && echo -R) >>"$DIR/fpm-upgrade-stdout.log" 2>&1 &
	FPM_PID=$!
	if ! fpm_wait_for 60 '[ "$(upgrade_ready)" -ge 1 ] && curl -s -o /dev/null -m 2 -w "%{http_code}" "$URL/segment.php" | grep -q 200 && curl -s -o /dev/null -m 2 -w "%{http_code}" "$URL/other/segment.php" | grep -q 200'; then
		bad "named: php-fpm on the previous layout's table.so starts and serves both pools" "$(tail -n 5 "$DIR/fpm-upgrade-error.log" "$DIR/fpm-upgrade-stdout.log" 2>/dev/null | tr '\n' ' ')"
	else
		TOKU="u$RANDOM$RANDOM"
		get "kv.php?op=set&k=up&v=$TOKU" >/dev/null
		get "other/kv.php?op=set&k=up&v=$TOKU" >/dev/null
		BEFORE_UP="$(values "kv.php?op=get&k=up") $(layout_of "$UPDIR/php-table.pool-a") $(layout_of "$UPDIR/php-table.pool-b")"
		OLD_CHILDREN=$(fpm_children | tr '\n' ' ')
		sed -i -e "s|^extension=.*|extension=$SO|" "$DIR/php-upgrade.ini"
		kill -USR2 "$FPM_PID"
		fpm_wait_for 60 '[ "$(upgrade_ready)" -ge 2 ] && [ -z "$(alive_of $OLD_CHILDREN)" ] && curl -s -o /dev/null -m 2 -w "%{http_code}" "$URL/segment.php" | grep -q 200'
		TOKV="v$RANDOM$RANDOM"
		UP_A=$(every_worker "kv.php?op=get&k=up" | distinct value)
		UP_B=$(every_worker "other/kv.php?op=get&k=up" | distinct value)
		SET_V=$(get "kv.php?op=set&k=up&v=$TOKV")
		UP_V=$(every_worker "kv.php?op=get&k=up" | distinct value)
		AFTER_UP="$(layout_of "$UPDIR/php-table.pool-a") $(layout_of "$UPDIR/php-table.pool-b")"
		LOG_A=$(grep -c "Shm.Table: segment \"pool-a\" ($UPDIR/php-table.pool-a) replaced: .*layout 5.*layout 6" "$DIR/php-upgrade-error.log" 2>/dev/null)
		LOG_B=$(grep -c "Shm.Table: segment \"pool-b\" ($UPDIR/php-table.pool-b) replaced: .*layout 5.*layout 6" "$DIR/php-upgrade-error.log" 2>/dev/null)
		OTHER_LOG=$(grep -v 'Shm.Table: segment "pool-[ab]" .* replaced: ' "$DIR/php-upgrade-error.log" 2>/dev/null | head -n 3)
		echo "  upgrade: before the reload read $BEFORE_UP (value, layouts); after it seg-a read $UP_A seg-b $UP_B, then $UP_V; layouts $AFTER_UP; log lines $LOG_A + $LOG_B"
		check '[ "$BEFORE_UP" = "$TOKU, 5 5" ]' "named: the previous layout's build made both segments (layout 5) and served them" "$BEFORE_UP"
		check '[ "$UP_A" = "null," ] && [ "$UP_B" = "null," ] && [ "$(json set <<<"$SET_V")" = true ] && [ "$UP_V" = "$TOKV," ] && [ "$AFTER_UP" = "6 6" ]' \
			"named: after a reload onto the current table.so, each pool's segment of the previous layout is replaced at once by a new, empty one (layout 6) that every worker serves and agrees on" \
			"seg-a: $UP_A seg-b: $UP_B set: $SET_V then: $UP_V layouts: $AFTER_UP"
		check '[ "$LOG_A" = 1 ] && [ "$LOG_B" = 1 ] && [ -z "$OTHER_LOG" ] && [ -z "$(mapped_removed "$UPDIR")" ]' \
			"named: the PHP error log says once per segment that the old layout's segment was replaced, and nothing else; no process maps an old file" \
			"pool-a: $LOG_A line(s), pool-b: $LOG_B, other: $OTHER_LOG; mapped by: $(mapped_removed "$UPDIR")"
	fi
	stop_fpm
fi

# --- 9. pools of two users on one master: neither sees the other's entries (php_table_users.c) ----------
if [ $ROOT_USER != 1 ]; then
	echo "  (part 9 skipped: running pools as two users needs root)"
	finish
fi
for u in table-fpm-a table-fpm-b; do
	id -u "$u" >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin "$u"
done
chmod 755 "$DIR" "$DIR/www" "$DIR/other"
cp "$HERE/www/users.php" "$DIR/other/"
# The status page too: it lists and browses through the same methods (it needs ext/ctype).
cp "$ROOT/status/table-status.php" "$DIR/www/"
cp "$ROOT/status/table-status.php" "$DIR/other/"
chmod 644 "$DIR"/www/*.php "$DIR"/other/*.php
sed -e "s|^error_log=.*|error_log=$DIR/php-users-error.log|" "$DIR/php.ini" >"$DIR/php-users.ini"
php -n -d extension=ctype -r 'exit(function_exists("ctype_xdigit") ? 0 : 1);' 2>/dev/null && echo 'extension=ctype' >>"$DIR/php-users.ini"
: >"$DIR/php-users-error.log" && chmod 666 "$DIR/php-users-error.log"
{
	printf '[global]\npid = %s\nerror_log = %s\nlog_level = notice\ndaemonize = no\n' "$DIR/fpm-users.pid" "$DIR/fpm-users-error.log"
	pool user-a "$FPM_PORT" 2 | sed 's/^user = root$/user = table-fpm-a/; s/^group = root$/group = table-fpm-a/'
	pool user-b "$FPM_PORT2" 2 | sed 's/^user = root$/user = table-fpm-b/; s/^group = root$/group = table-fpm-b/'
} >"$DIR/fpm-users.conf"
users_ready() { local n; n=$(grep -c 'ready to handle connections' "$DIR/fpm-users-error.log" 2>/dev/null); echo "${n:-0}"; }
PHP_INI_SCAN_DIR= "$FPM_BIN" -F -y "$DIR/fpm-users.conf" -c "$DIR/php-users.ini" >>"$DIR/fpm-users-stdout.log" 2>&1 &
FPM_PID=$!
if ! fpm_wait_for 60 '[ "$(users_ready)" -ge 1 ] && curl -s -o /dev/null -m 2 -w "%{http_code}" "$URL/users.php" | grep -q 200 && curl -s -o /dev/null -m 2 -w "%{http_code}" "$URL/other/users.php" | grep -q 200'; then
	bad "php-fpm with pools of two users starts and serves both pools" "$(tail -n 5 "$DIR/fpm-users-error.log" "$DIR/fpm-users-stdout.log" 2>/dev/null | tr '\n' ' ')"
	finish
fi
fpm_children >"$DIR/fpm-children"
TOKA="ua$RANDOM$RANDOM" TOKB="ub$RANDOM$RANDOM"
WA=$(get "users.php?op=write&v=$TOKA")
WB=$(get "other/users.php?op=write&v=$TOKB")
UID_A=$(id -u table-fpm-a) UID_B=$(id -u table-fpm-b)
check '[ "$(json user <<<"$WA")" = "$UID_A" ] && [ "$(json user <<<"$WB")" = "$UID_B" ] && [ "$(json set <<<"$WA")" = true ] && [ "$(json set <<<"$WB")" = true ]' \
	"users: pool user-a runs as table-fpm-a, user-b as table-fpm-b; each wrote under the same names" "$WA $WB"
# Each pool's view, from several workers (6 requests): the same names, its own token, and no trace of the
# other pool's (in get, getMany, keys, fullscan, namespaces and stats).
view_of() { local i; for i in 1 2 3 4 5 6; do get "$1"; done | php -n -r 'while (($l = fgets(STDIN)) !== false) { $o = json_decode($l, true); unset($o["user"]); $seen[json_encode($o)] = 1; } echo implode("\n", array_keys($seen ?? []));'; }
expect_view() { php -n -r '$t = $argv[1]; echo json_encode(["get" => [$t, $t], "getMany" => ["secret" => $t], "keys" => ["secret"], "namespaces" => ["ns-$t", "site"], "stats" => ["", "ns-$t", "site"], "fullscan" => ["ns-$t:only-$t=" . json_encode($t), "null:secret=" . json_encode($t), "site:secret=" . json_encode($t)]]);' "$1"; }
VA=$(view_of users.php)
VB=$(view_of other/users.php)
check '[ "$VA" = "$(expect_view "$TOKA")" ]' "users: every worker of pool user-a sees user-a's entries and nothing of user-b's, through every method" "got: $VA; expected: $(expect_view "$TOKA")"
check '[ "$VB" = "$(expect_view "$TOKB")" ]' "users: every worker of pool user-b sees user-b's entries and nothing of user-a's, through every method" "got: $VB; expected: $(expect_view "$TOKB")"
# The status page through each pool: its namespace list and its key browser of "site" (hex 73697465).
for pool in a b; do
	own=$([ $pool = a ] && echo "$TOKA" || echo "$TOKB"); theirs=$([ $pool = a ] && echo "$TOKB" || echo "$TOKA")
	prefix=$([ $pool = a ] && echo "" || echo "other/")
	PAGE=$(get "${prefix}table-status.php"; get "${prefix}table-status.php?ns=73697465")
	check '[ -n "$PAGE" ] && grep -q "ns-$own" <<<"$PAGE" && grep -q ">secret<" <<<"$PAGE" && ! grep -q "$theirs" <<<"$PAGE"' \
		"users: the status page through pool user-$pool lists user-$pool's namespaces and keys, and nothing of the other's" \
		"$(grep -o "ns-u[ab][0-9]*" <<<"$PAGE" | sort -u | tr '\n' ' ') $(head -c 300 <<<"$PAGE" | tr '\n' ' ')"
done
stop_fpm
check_fpm_logs users 'user-a|user-b' "$DIR/fpm-users-error.log" "$DIR/php-users-error.log"
finish
}
