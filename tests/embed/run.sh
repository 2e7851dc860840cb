#!/usr/bin/env bash
# tests/embed/run.sh - build tests/embed/threads.c against a thread-safe PHP's embed SAPI (libphp.so, from
# scripts/build-zts-php.sh) and run it with a table.so built for that PHP: one process, many threads
# running PHP requests, exact totals (see threads.c). It stands in for FrankenPHP, which cannot be built
# here: FrankenPHP runs its worker threads the same way, on the embed SAPI's functions.
#
#   bash tests/embed/run.sh PHP_CONFIG TABLE_SO [THREADS [REQUESTS [ITERATIONS]]]
#   EMBED_WRAPPER="strace -f"                run the harness under a wrapper
#   EMBED_INI="table.zero_copy=1"             more INI lines (one per line)
#   EMBED_TSAN=1                              TABLE_SO is built with clang -fsanitize=thread (scripts/test.sh's
#                                             embed-tsan layer): see below
#   EMBED_REDIS=0                             skip the Redis tier's pass (see below)
#   TABLE_REDIS_SERVER=valkey-server          the server that pass starts (default redis-server)
#
# The Redis tier: when TABLE_SO is built with it (it links hiredis), the harness runs a second time,
# with EMBED_TIER=1, against a redis-server this script starts on a unix socket: the same threads doing
# get/set/add/increment on a tiered namespace, exact totals in Redis, the helper started (by the
# launcher, binding/php_table_tier_launcher.c), and the ended threads' connections closed. No
# redis-server: the pass is skipped, or fails with REDIS_TESTS_REQUIRED=1.
#
# Builds into EMBED_BUILD_DIR (default build/embed-threads/, gitignored). Ends with
# `embed-threads: N passed, N failed` (both passes summed); with EMBED_TSAN=1 then with
# `embed-tsan: N passed, N failed`.
#
# EMBED_TSAN=1: the harness is built by clang with -fsanitize=thread too, against the PHP as it is (not
# instrumented): ThreadSanitizer sees every memory access of table.so and of the harness, every pthread
# call and every memcpy/memset/malloc/free of the process (its interceptors), and none of the engine's
# own accesses. It runs the harness with table.so handed over by EMBED_MODULE (threads.c: PHP's own
# dlopen() uses RTLD_DEEPBIND, which the sanitizer refuses), USE_ZEND_ALLOC=0 (each emalloc() a malloc()
# it sees, so that a block one thread frees and another reuses starts clean for it) and ASLR off
# (setarch -R, as core/Makefile's test-tsan: the runtime's fixed shadow layout). TSan has no false
# positives on code that synchronizes through pthreads and C11 atomics, which is all table.so does (the
# core's own C tests run under it too), and a race it reports is a real one whatever the timing: a
# report with a table.so frame fails the run; any other (none so far: PHP's own code is not instrumented)
# is shown and not counted. Why not helgrind or DRD: they do not understand C11 atomics, and the table's
# lock-free reads (tbl_read_lookup against put_locked, its epochs) came out as dozens of "possible data
# races", which only annotations inside core/ could answer.
set -euo pipefail
cd "$(dirname "$0")/../.."
PHP_CONFIG=${1:?usage: run.sh PHP_CONFIG TABLE_SO [THREADS [REQUESTS [ITERATIONS]]]}
SO=$(cd "$(dirname "${2:?usage: run.sh PHP_CONFIG TABLE_SO}")" && pwd)/$(basename "$2")
shift 2
prefix=$("$PHP_CONFIG" --prefix)
lib=$(dirname "$(find "$prefix/lib" -maxdepth 2 -name libphp.so | head -n 1)")
[ -f "$lib/libphp.so" ] || { echo "no libphp.so under $prefix/lib: build the PHP with --enable-embed"; echo "embed-threads: 0 passed, 1 failed"; exit 1; }
[ "$("$prefix/bin/php" -r 'echo PHP_ZTS;')" = 1 ] || { echo "$PHP_CONFIG is not a thread-safe PHP"; echo "embed-threads: 0 passed, 1 failed"; exit 1; }
out=${EMBED_BUILD_DIR:-build/embed-threads}
mkdir -p "$out/conf.d"

# The Redis tier's pass (EMBED_TIER=1 in threads.c): when table.so is built with it (it links hiredis) and
# a redis-server is installed, unless EMBED_REDIS=0. The server is this script's own, on a unix socket in
# $out, with nothing saved; the tier's keys are under a prefix of this run's.
REDIS_SERVER=${TABLE_REDIS_SERVER:-redis-server}
tier=0
if [ "${EMBED_REDIS:-1}" != 0 ] && readelf -d "$SO" 2>/dev/null | grep -q 'NEEDED.*libhiredis'; then
	if command -v "$REDIS_SERVER" >/dev/null 2>&1; then
		tier=1
	elif [ "${REDIS_TESTS_REQUIRED:-0}" = 1 ]; then
		echo "FAIL $REDIS_SERVER is not installed, and REDIS_TESTS_REQUIRED=1"; echo "embed-threads: 0 passed, 1 failed"; exit 1
	else
		echo "(the Redis tier's pass skipped: no $REDIS_SERVER)"
	fi
fi
redis_pid=
stop_redis() { [ -z "$redis_pid" ] || { kill "$redis_pid" 2>/dev/null; wait "$redis_pid" 2>/dev/null; redis_pid=; }; }
trap stop_redis EXIT
start_redis() { # -> $ini: the INI lines that point the tier at it; or says why not, and returns 1
	local sock i
	sock="$(cd "$out" && pwd)/redis.sock"
	rm -f "$sock"
	"$REDIS_SERVER" --port 0 --unixsocket "$sock" --unixsocketperm 700 --save '' --appendonly no \
		--logfile "$out/redis.log" --daemonize no </dev/null >/dev/null 2>&1 &
	redis_pid=$!
	for ((i = 0; i < 600; i++)); do [ -S "$sock" ] && break; sleep 0.1; done
	[ -S "$sock" ] || { echo "FAIL $REDIS_SERVER did not start (see $out/redis.log)"; echo "embed-threads: 0 passed, 1 failed"; return 1; }
	# table.redis_timeout: generous, as under ThreadSanitizer everything is slower.
	ini=$(printf "table.redis=unix://%s\ntable.redis_namespaces=tier\ntable.redis_prefix=embed%s:\ntable.redis_timeout=30000" \
		"$sock" "$$")
}

# Sums the "embed-threads: N passed, N failed" lines of the logs given.
sum_summaries() {
	cat "$@" | awk -F'[:,]' '/^embed-threads: [0-9]+ passed, [0-9]+ failed/ { split($2, a, " "); split($3, b, " "); p += a[1]; f += b[1]; n++ }
		END { if (n) print p, f }'
}

if [ "${EMBED_TSAN:-0}" != 1 ]; then
	# shellcheck disable=SC2046 # php-config's flags are words
	${CC:-cc} -std=gnu11 -D_GNU_SOURCE -O1 -g -Wall -Werror -pthread $("$PHP_CONFIG" --includes) -o "$out/threads" tests/embed/threads.c \
		-L"$lib" -lphp -Wl,-rpath,"$lib" -ldl
	printf "extension=%s\ntable.memory=64M\n%s\n" "$SO" "${EMBED_INI:-}" >"$out/conf.d/table.ini"
	# Only this directory's INI files: the PHP's own scan dir may load another table.so.
	set +e
	PHP_INI_SCAN_DIR="$out/conf.d" ${EMBED_WRAPPER:-} "$out/threads" "$@" 2>&1 | tee "$out/threads.log"
	rc=${PIPESTATUS[0]}
	logs=("$out/threads.log")
	if [ $tier = 1 ]; then
		echo "-- the same threads on the Redis tier (EMBED_TIER=1)"
		if start_redis >"$out/threads-tier.log"; then
			printf "extension=%s\ntable.memory=64M\n%s\n%s\n" "$SO" "${EMBED_INI:-}" "$ini" >"$out/conf.d/table.ini"
			EMBED_TIER=1 PHP_INI_SCAN_DIR="$out/conf.d" ${EMBED_WRAPPER:-} "$out/threads" "$@" 2>&1 | tee "$out/threads-tier.log"
			[ "${PIPESTATUS[0]}" -eq 0 ] || rc=1
		else
			cat "$out/threads-tier.log"; rc=1
		fi
		stop_redis
		logs+=("$out/threads-tier.log")
	fi
	read -r p f <<<"$(sum_summaries "${logs[@]}")"
	[ -n "${p:-}" ] || { echo "the harness ended without its summary (exit $rc)"; p=0 f=1; }
	[ "$rc" -ne 0 ] && [ "$f" -eq 0 ] && f=1
	echo "embed-threads: $p passed, $f failed"
	[ "$f" -eq 0 ]
	exit
fi

tsan_failed() { echo "$*"; echo "embed-tsan: 0 passed, 1 failed"; exit 1; }
[[ "$(nm -D "$SO" 2>/dev/null)" == *" U __tsan_func_entry"* ]] || tsan_failed "$SO is not built with -fsanitize=thread"
# shellcheck disable=SC2046 # php-config's flags are words
clang -std=gnu11 -D_GNU_SOURCE -O1 -g -fsanitize=thread -fno-omit-frame-pointer -Wall -Werror -pthread \
	$("$PHP_CONFIG" --includes) -o "$out/threads" tests/embed/threads.c -L"$lib" -lphp -Wl,-rpath,"$lib" -ldl \
	|| tsan_failed "the harness did not build with clang -fsanitize=thread"
norandom=()
setarch "$(uname -m)" -R true >/dev/null 2>&1 && norandom=(setarch "$(uname -m)" -R)
log="$out/tsan.log"
set +e
# exitcode=0: the reports are counted below, by whose frames they show.
run_tsan() { # EMBED_TIER value, extra INI lines; appends to $log
	printf "table.memory=64M\n%s\n%s\n" "${EMBED_INI:-}" "$2" >"$out/conf.d/table.ini"
	EMBED_TIER=$1 EMBED_MODULE="$SO" PHP_INI_SCAN_DIR="$out/conf.d" USE_ZEND_ALLOC=0 \
		TSAN_OPTIONS="halt_on_error=0:exitcode=0:second_deadlock_stack=1${TSAN_OPTIONS:+:$TSAN_OPTIONS}" \
		"${norandom[@]}" ${EMBED_WRAPPER:-} "$out/threads" "${args[@]}" 2>&1 | tee -a "$log"
	return "${PIPESTATUS[0]}"
}
args=("$@")
: >"$log"
run_tsan 0 ""
rc=$?
if [ $tier = 1 ]; then
	echo "-- the same threads on the Redis tier (EMBED_TIER=1), under ThreadSanitizer" | tee -a "$log"
	# Without the helper: ThreadSanitizer sees only this process, and the helper is another one that writes
	# the segment (it clears the tiered namespaces, applies invalidations, retires and frees entries), so
	# an entry one thread built, the helper retired and another thread then linked behind it in the retire
	# list shows as a race between the two threads, ordered only through the helper's locks, which it
	# cannot see. The pass above, without the sanitizer, runs with the helper; this one checks the
	# threads' own connections and calls, the L1 not fresh (every read from Redis).
	if start_redis >>"$log"; then
		TABLE_TEST_HOOKS=1 TABLE_TEST_TIER_NO_HELPER=1 run_tsan 1 "$ini" || rc=1
	else
		tail -n 2 "$log"; rc=1
	fi
	stop_redis
fi
# Each report runs from its WARNING line to a line of '=' signs.
ours=$(awk '/^WARNING: ThreadSanitizer/ { n++; on = 1 } on && /table\.so/ { hit[n] = 1 } /^==================$/ { on = 0 }
	END { c = 0; for (i in hit) c++; print c }' "$log")
all=$(grep -c '^WARNING: ThreadSanitizer' "$log")
read -r p f <<<"$(sum_summaries "$log")"
[ -n "${p:-}" ] || tsan_failed "the harness ended without its summary (exit $rc)"
[ "$rc" -ne 0 ] && [ "$f" -eq 0 ] && f=1
if [ "$ours" -gt 0 ]; then
	echo "FAIL ThreadSanitizer: $ours of its reports show a table.so frame (above; all in $log)"
	f=$((f + 1))
else
	p=$((p + 1))
	echo "ThreadSanitizer: no report with a table.so frame$([ "$all" -gt 0 ] && echo " ($all report(s) in PHP's own code, above, not counted)")"
fi
echo "embed-tsan: $p passed, $f failed"
[ "$f" -eq 0 ]
