#!/usr/bin/env bash
# benchmarks/fpm/run.sh - Shm\Table against APCu in a real php-fpm behind nginx, measured with wrk.
#
#   bash benchmarks/fpm/run.sh /abs/path/to/table.so [--records 200] [--seconds 10] [--connections 8]
#                              [--repeat 3] [--workers 4] [--zero-copy auto|0|1]
#
# What it measures: requests per second of two endpoints that differ only in the cache they read. Each
# request reads --records consecutive records of benchmarks/data/meteorites.json (1,000 NASA meteorite
# records: arrays of 7-11 strings, most with a nested geolocation array of floats), starting at a random
# key, from Shm\Table (www/table.php) or from APCu with apc.serializer=default (www/apcu.php), and counts
# every element of each record, nested ones included, so that no read is in vain. A miss is an HTTP 500.
# The difference between the two is what getting an array out of shared memory and into a request costs:
# what zero-copy reads are about.
#
# Setup: its own php-fpmX.Y (the `php` on PATH's; pm = static, --workers of them) with its own php.ini and no scanned ini dir,
# loading table.so, apcu.so and opcache (as any FPM deployment would) and nothing else; its own nginx; both
# on free 127.0.0.1 ports, in a temporary directory. One request stores record i under "m:<i>" in both
# caches (the workers share the master's segments, so once is enough), then a few more requests check
# that every key reads back === the record, in both. After a 1 s warmup of each endpoint,
# `wrk -t2 -c<connections> -d<seconds>s` runs against Table, then APCu, --repeat times; no run may see a
# non-2xx response or a socket error. --zero-copy VALUE puts table.zero_copy=VALUE in the php.ini (nothing
# otherwise) and requires the build to know that setting. Afterwards the table's stats must show the mode
# expected (with auto or 1: every Table read zero-copy; with 0: every read copied) and no worker still
# pinned once its requests have ended. Last, requests that read arrays and then write run until long after
# the table is full (www/full_write.php): not one of their writes may fail.
# A busy machine changes the numbers, never a check: wrk's --timeout is past any run (a slow response is not
# an error), the full-table phase runs rounds of --seconds until one has run from start to end on a table
# that had already evicted (120 s of rounds at most), and "nothing pinned" is waited for (up to 30 s),
# since a request wrk gave up on when it stopped may still be running in a worker.
#
# Prints the mode the table ran in (ini_get('table.zero_copy'), false where the build has no such setting,
# and the entries of Shm\Table::stats() that name zero_copy, pin, retired or copied, read after the runs),
# a markdown table (median req/s, every run, Factor = Table/APCu) and the exact wrk command lines.
# Installs phpX.Y-fpm phpX.Y-cli nginx wrk php-apcu curl unless NO_INSTALL=1; stops every process it
# started (trap). KEEP=1 keeps the temporary directory (configs, logs, wrk output); it is always kept when
# a check failed. Ends with `fpm-bench: N passed, N failed`; exit status 1 on any failure, 2 on a bad
# command line.
set -uo pipefail
{
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
FPM_LIB_NAME=fpm-bench
. "$ROOT/scripts/fpm-lib.sh"
usage() { # message: the usage lines and the message on stderr, exit 2; none: the whole header, exit 0
	if [ -z "${1:-}" ]; then sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0; fi
	sed -n '4,5p' "$0" | sed 's/^# \{0,1\}//' >&2
	echo "fpm-bench: $1" >&2
	exit 2
}
count_arg() { [[ "$2" =~ ^[1-9][0-9]*$ ]] || usage "$1 must be a positive integer, not '$2'"; echo "$2"; }

# --- command line --------------------------------------------------------------------------------------
SO=${TABLE_SO:-}
RECORDS=200 DURATION=10 CONNECTIONS=8 REPEAT=3 WORKERS=4 ZERO_COPY=""
while [ $# -gt 0 ]; do
	opt=$1 val=""
	case "$opt" in
		--*=*) val=${opt#*=} opt=${opt%%=*} ;;
		--records|--seconds|--connections|--repeat|--workers|--zero-copy)
			[ $# -ge 2 ] || usage "$opt needs a value"
			val=$2
			shift ;;
	esac
	case "$opt" in
		--records) RECORDS=$(count_arg "$opt" "$val") || exit 2 ;;
		--seconds) DURATION=$(count_arg "$opt" "$val") || exit 2 ;;
		--connections) CONNECTIONS=$(count_arg "$opt" "$val") || exit 2 ;;
		--repeat) REPEAT=$(count_arg "$opt" "$val") || exit 2 ;;
		--workers) WORKERS=$(count_arg "$opt" "$val") || exit 2 ;;
		--zero-copy) ZERO_COPY=$val; [ -n "$val" ] || usage "--zero-copy needs a value" ;;
		-h|--help) usage ;;
		-*) usage "unknown option: $opt" ;;
		*) SO=$opt ;;
	esac
	shift
done
if [ -z "$SO" ] || [ ! -f "$SO" ]; then usage "table.so not given or no such file${SO:+: $SO}"; fi
SO=$(realpath "$SO")

# --- tools ---------------------------------------------------------------------------------------------
if [ "${NO_INSTALL:-0}" != 1 ]; then
	if ! ( . "$ROOT/scripts/lib.sh" && apt_ensure $(php_deb_pkgs fpm cli opcache) nginx wrk php-apcu curl ); then
		bad "installing php-fpm php-cli nginx wrk php-apcu curl"
		finish
	fi
fi
fpm_find_bins
EXT_DIR=$(php -r 'echo ini_get("extension_dir");')
for t in "$FPM_BIN" "$NGINX_BIN" "$(command -v wrk)" "$(command -v curl)" "$(command -v php)"; do
	if [ -z "$t" ]; then
		bad "tools present (php-fpm, nginx, wrk, curl, php; NO_INSTALL=1 was given?)"
		finish
	fi
done
for f in apcu.so opcache.so; do
	if [ ! -f "$EXT_DIR/$f" ]; then
		bad "$EXT_DIR/$f present (php-apcu, php-opcache)"
		finish
	fi
done

DIR=$(mktemp -d /tmp/table-fpm-bench.XXXXXX)
trap fpm_cleanup EXIT
trap 'echo "fpm-bench: interrupted"; exit 1' INT TERM

FPM_PORT=$(fpm_free_port)
HTTP_PORT=$(fpm_free_port)
while [ "$HTTP_PORT" = "$FPM_PORT" ]; do HTTP_PORT=$(fpm_free_port); done
URL="http://127.0.0.1:$HTTP_PORT"
mkdir -p "$DIR/www" "$DIR/tmp"
cp "$HERE"/www/*.php "$DIR/www/"
cp "$ROOT/benchmarks/data/meteorites.json" "$DIR/"
KEYS=$(php -n -r 'echo count(json_decode(file_get_contents($argv[1]), true));' "$DIR/meteorites.json")

ROOT_USER=0
[ "$(id -u)" -eq 0 ] && ROOT_USER=1

cat >"$DIR/php.ini" <<EOF
extension=$SO
extension=$EXT_DIR/apcu.so
zend_extension=$EXT_DIR/opcache.so
table.memory=128M
$([ -n "$ZERO_COPY" ] && echo "table.zero_copy=$ZERO_COPY")
apc.enabled=1
apc.shm_size=128M
apc.serializer=default
opcache.enable=1
display_errors=0
display_startup_errors=0
log_errors=1
error_log=$DIR/php-error.log
error_reporting=E_ALL
EOF

cat >"$DIR/fpm.conf" <<EOF
[global]
pid = $DIR/fpm.pid
error_log = $DIR/fpm-error.log
log_level = notice
daemonize = no

[bench]
$([ $ROOT_USER = 1 ] && printf 'user = root\ngroup = root')
listen = 127.0.0.1:$FPM_PORT
pm = static
pm.max_children = $WORKERS
catch_workers_output = yes
decorate_workers_output = no
EOF

cat >"$DIR/nginx.conf" <<EOF
$([ $ROOT_USER = 1 ] && echo 'user root root;')
worker_processes 1;
pid $DIR/nginx.pid;
error_log $DIR/nginx-error.log warn;
events { worker_connections 1024; }
http {
    access_log off;
    keepalive_requests 1000000;
    client_body_temp_path $DIR/tmp/body;
    fastcgi_temp_path $DIR/tmp/fastcgi;
    proxy_temp_path $DIR/tmp/proxy;
    uwsgi_temp_path $DIR/tmp/uwsgi;
    scgi_temp_path $DIR/tmp/scgi;
    server {
        listen 127.0.0.1:$HTTP_PORT;
        location / {
            root $DIR/www;
            fastcgi_pass 127.0.0.1:$FPM_PORT;
            fastcgi_param SCRIPT_FILENAME \$document_root\$fastcgi_script_name;
            fastcgi_param QUERY_STRING \$query_string;
            fastcgi_param REQUEST_METHOD \$request_method;
            fastcgi_param REQUEST_URI \$request_uri;
            fastcgi_param SCRIPT_NAME \$fastcgi_script_name;
        }
    }
}
EOF

# --- start ---------------------------------------------------------------------------------------------
echo "fpm-bench: $FPM_BIN (pm = static, $WORKERS workers) behind nginx on $URL; module $SO${ZERO_COPY:+; table.zero_copy=$ZERO_COPY}"
echo "  $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg); work dir $DIR"
FPM_ARGS=(-F -y "$DIR/fpm.conf" -c "$DIR/php.ini")
[ $ROOT_USER = 1 ] && FPM_ARGS+=(-R)
# No scanned ini dir: only our php.ini, so only the extensions it names are loaded.
PHP_INI_SCAN_DIR='' "$FPM_BIN" "${FPM_ARGS[@]}" >"$DIR/fpm-stdout.log" 2>&1 &
FPM_PID=$!
"$NGINX_BIN" -p "$DIR" -c "$DIR/nginx.conf" -e "$DIR/nginx-error.log" -g 'daemon off;' >"$DIR/nginx-stdout.log" 2>&1 &
NGINX_PID=$!

get() { curl -s -m 30 "$URL/$1"; }
code() { curl -s -o /dev/null -m 30 -w '%{http_code}' "$URL/$1"; }
# json PATH <<<"$JSON": a field of a JSON object (PATH may be a/b); strings raw, null/true/false as words,
# arrays as JSON
json() { php -n -r '$v = json_decode(stream_get_contents(STDIN), true); foreach (explode("/", $argv[1]) as $k) { $v = is_array($v) ? ($v[$k] ?? null) : null; } echo match (true) { $v === null => "null", is_bool($v) => ($v ? "true" : "false"), is_scalar($v) => $v, default => json_encode($v) };' "$1"; }

# FPM first: a request nginx passes on before FPM listens is a 502 and an error in nginx's log.
if ! fpm_wait_for 60 'grep -q "ready to handle connections" "$DIR/fpm-error.log" 2>/dev/null && [ "$(code mode.php)" = 200 ]'; then
	bad "php-fpm and nginx start and serve mode.php" "$(tail -n 5 "$DIR/fpm-error.log" "$DIR/fpm-stdout.log" "$DIR/nginx-error.log" "$DIR/php-error.log" 2>/dev/null | tr '\n' ' ')"
	finish
fi
pgrep -P "$FPM_PID" >"$DIR/fpm-children" 2>/dev/null
pgrep -P "$NGINX_PID" >"$DIR/nginx-children" 2>/dev/null
MODE=$(get mode.php)
check '[ "$(json ini <<<"$MODE")" = "$DIR/php.ini" ] && [ "$(json scanned <<<"$MODE")" = false ] && [ "$(json table <<<"$MODE")" = true ] && [ "$(json apcu <<<"$MODE")" = true ] && [ "$(json opcache <<<"$MODE")" = true ] && [ "$(json apc.serializer <<<"$MODE")" = default ]' \
	"workers run with our php.ini only: table, APCu (apc.serializer=default) and opcache enabled" "$MODE"
if [ -n "$ZERO_COPY" ]; then
	check '[ "$(json table.zero_copy <<<"$MODE")" != false ]' "this build knows table.zero_copy (given: $ZERO_COPY)" "ini_get('table.zero_copy') is false"
fi

# --- seed and verify -----------------------------------------------------------------------------------
SEED=$(get seed.php)
check '[ "$(json records <<<"$SEED")" = "$KEYS" ] && [ "$(json failed <<<"$SEED")" = "[]" ]' "seed: $KEYS records stored as m:0..m:$((KEYS - 1)) in Shm\\Table and in APCu" "$SEED"
VERIFY_BAD="" VERIFY_PIDS=""
for _ in $(seq 1 $((2 * WORKERS))); do
	V=$(get verify.php)
	VERIFY_PIDS="$VERIFY_PIDS $(json pid <<<"$V")"
	[ "$(json records <<<"$V")" = "$KEYS" ] && [ "$(json Table/bad <<<"$V")" = 0 ] && [ "$(json APCu/bad <<<"$V")" = 0 ] || VERIFY_BAD=${VERIFY_BAD:-${V:-(no answer)}}
done
NPIDS=$(tr ' ' '\n' <<<"$VERIFY_PIDS" | grep -v -e '^$' -e '^null$' | sort -u | wc -l)
check '[ -z "$VERIFY_BAD" ]' "verify: $((2 * WORKERS)) more requests ($NPIDS worker pids) read every key back === its record, from both caches" "first bad answer: $VERIFY_BAD"
# Both endpoints, from the same key on, must see the same records.
T0=$(get "table.php?n=$KEYS&keys=$KEYS&at=0")
A0=$(get "apcu.php?n=$KEYS&keys=$KEYS&at=0")
check '[[ "$T0" == "ok $KEYS "* ]] && [ "$T0" = "$A0" ]' "table.php and apcu.php read all $KEYS keys and agree on the checksum ($T0)" "table: $T0, apcu: $A0"
[ "$FAIL" -eq 0 ] || finish

# --- wrk -----------------------------------------------------------------------------------------------
QUERY="n=$RECORDS&keys=$KEYS"
WRK=(wrk -t2 -c"$CONNECTIONS" -d"${DURATION}s" --timeout 60s)
for s in table apcu; do wrk -t2 -c"$CONNECTIONS" -d1s --timeout 60s "$URL/$s.php?$QUERY" >"$DIR/wrk-warmup-$s.txt" 2>&1; done
declare -A RPS=([table]="" [apcu]="")
for r in $(seq 1 "$REPEAT"); do
	for s in table apcu; do
		out="$DIR/wrk-$s-$r.txt"
		"${WRK[@]}" "$URL/$s.php?$QUERY" >"$out" 2>&1
		rps=$(sed -n 's/^Requests\/sec: *\([0-9.]*\).*/\1/p' "$out")
		n=$(sed -n 's/^ *\([0-9][0-9]*\) requests in .*/\1/p' "$out")
		errs=$(grep -E 'Non-2xx|Socket errors' "$out" | tr '\n' ' ')
		check '[ -n "$rps" ] && [ "${n:-0}" -gt 0 ] && [ -z "$errs" ]' "$s run $r: ${rps:-?} req/s, ${n:-?} requests, no non-2xx response, no socket error" "${errs:-$(tail -n 3 "$out" | tr '\n' ' ')}"
		RPS[$s]="${RPS[$s]} ${rps:-0}"
	done
done

# --- mode, logs ----------------------------------------------------------------------------------------
# The mode the workers ran in: what table.zero_copy (auto unless given) makes of the fpm-fcgi SAPI. Zero-
# copy reads pin a worker until its request ends; once no request is in flight but this one (which reads
# nothing), no slot may still be pinned: wait for that (a request wrk gave up on may still be running),
# up to 30 s, which only a pin that outlives its request does not give.
fpm_wait_for 30 'MODE=$(get mode.php); [ "$(json stats/pins <<<"$MODE")" = 0 ]'
ZC_ON=$(json stats/zero_copy <<<"$MODE")
ZC_READS=$(json stats/zero_copy_reads <<<"$MODE")
COPIED=$(json stats/copied_reads <<<"$MODE")
PINS=$(json stats/pins <<<"$MODE")
case "${ZERO_COPY:-auto}" in
	auto|1|on)
		check '[ "$ZC_ON" = true ] && [ "${ZC_READS:-0}" -gt 0 ] && [ "$COPIED" = 0 ] && [ "$PINS" = 0 ]' \
			"zero-copy on under FPM: every Table read was zero-copy, and no worker stays pinned after its request" "$(json stats <<<"$MODE")" ;;
	*)
		check '[ "$ZC_ON" = false ] && [ "$ZC_READS" = 0 ] && [ "$PINS" = 0 ]' \
			"zero-copy off (table.zero_copy=$ZERO_COPY): every Table read was copied, nothing pinned" "$(json stats <<<"$MODE")" ;;
esac
PHPERR=$(head -n 3 "$DIR/php-error.log" 2>/dev/null)
check '[ -z "$PHPERR" ]' "the PHP error log is empty" "$PHPERR"
FPMERR=$(grep -vE '\] NOTICE: ' "$DIR/fpm-error.log" | head -n 3)
check '[ -z "$FPMERR" ]' "the FPM error log holds notices only" "$FPMERR"
NGXERR=$(grep -E '\[(error|crit|alert|emerg)\]' "$DIR/nginx-error.log" | head -n 3)
check '[ -z "$NGXERR" ]' "nginx logged no error" "$NGXERR"

# --- a full table ---------------------------------------------------------------------------------------
# Requests that read arrays (zero-copy under auto) and then write, until and long after the table is full
# (www/full_write.php: 20 writes of 32 KB each): not one write may fail, and the table must have evicted.
# Zero-copy holds keep only the entries a request was handed, so a full table keeps taking writes.
# How many requests fill the table is the machine's business: rounds of --seconds run until one has begun
# on a table that has already evicted (so that it writes into a full table from start to end); 120 s of
# rounds that never get there fail the check (no evictions, or a failed write).
FULL_N=0 FULL_ERRS="" FULL_ROUNDS=0 FULL_BEFORE=0
while [ "$FULL_BEFORE" = 0 ] && [ $((FULL_ROUNDS * DURATION)) -lt 120 ]; do
	FULL_BEFORE=$(json evictions <<<"$(get "full_write.php?report=1")")
	[[ "$FULL_BEFORE" =~ ^[0-9]+$ ]] || FULL_BEFORE=0
	FULL_ROUNDS=$((FULL_ROUNDS + 1))
	FULL_OUT="$DIR/wrk-full-write-$FULL_ROUNDS.txt"
	"${WRK[@]}" "$URL/full_write.php?n=50&w=20&size=32768&keys=$KEYS" >"$FULL_OUT" 2>&1
	FULL_N=$((FULL_N + $(sed -n 's/^ *\([0-9][0-9]*\) requests in .*/\1/p' "$FULL_OUT" | grep . || echo 0)))
	FULL_ERRS="$FULL_ERRS$(grep -E 'Non-2xx|Socket errors' "$FULL_OUT" | tr '\n' ' ')"
	[ -z "$FULL_ERRS" ] || break
done
# no worker holding entries once the requests have ended (one wrk gave up on may still be running)
fpm_wait_for 30 'FULL=$(get "full_write.php?report=1"); [ "$(json pins <<<"$FULL")" = 0 ]'
check '[ "${FULL_N:-0}" -gt 0 ] && [ -z "$FULL_ERRS" ] && [ "$(json evictions <<<"$FULL")" -gt 0 ] && [ "$(json oom <<<"$FULL")" = 0 ] && [ "$(json pins <<<"$FULL")" = 0 ]' \
	"full table: ${FULL_N:-?} requests in $FULL_ROUNDS round(s) of ${DURATION} s read arrays, then wrote 20 x 32 KB each: failed writes (oom) $(json oom <<<"$FULL") (must be 0), evictions $(json evictions <<<"$FULL") (must be > 0: the table was full), no worker holding entries afterwards" "${FULL_ERRS:-$FULL} $(tail -n 3 "$FULL_OUT" | tr '\n' ' ')"

# --- report --------------------------------------------------------------------------------------------
median() { tr ' ' '\n' | grep . | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }
runs() { tr ' ' '\n' | grep . | awk '{ printf "%s%.0f", (NR > 1 ? ", " : ""), $1 }'; }
MT=$(median <<<"${RPS[table]}")
MA=$(median <<<"${RPS[apcu]}")
echo
ZC=$(json table.zero_copy <<<"$MODE")
if [ "$ZC" = false ]; then ZC="false (no such setting in this build)"; else ZC="'$ZC'"; fi
echo "Table mode: table.zero_copy = $ZC; stats: $(json stats <<<"$MODE")"
echo "  (table.serializer $(json table.serializer <<<"$MODE"), apc.serializer $(json apc.serializer <<<"$MODE"), opcache on, $WORKERS FPM workers, $RECORDS of $KEYS records per request)"
echo
echo "| Subject | req/s (median) | runs | Factor (Table/APCu) |"
echo "|---|---:|---|---:|"
awk -v mt="$MT" -v ma="$MA" -v rt="$(runs <<<"${RPS[table]}")" -v ra="$(runs <<<"${RPS[apcu]}")" 'BEGIN {
	printf "| Table | %.0f | %s | %.2fx |\n", mt, rt, (ma > 0 ? mt / ma : 0)
	printf "| APCu(default) | %.0f | %s | 1.00x |\n", ma, ra
}'
echo
echo "Commands (each --repeat round runs Table, then APCu; a 1 s run of each before as warmup):"
echo "  ${WRK[*]} '$URL/table.php?$QUERY'"
echo "  ${WRK[*]} '$URL/apcu.php?$QUERY'"
echo
finish
}
