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
#
# Builds into EMBED_BUILD_DIR (default build/embed-threads/, gitignored). Ends with
# `embed-threads: N passed, N failed`; with EMBED_TSAN=1 then with `embed-tsan: N passed, N failed`.
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
if [ "${EMBED_TSAN:-0}" != 1 ]; then
	# shellcheck disable=SC2046 # php-config's flags are words
	${CC:-cc} -std=gnu11 -D_GNU_SOURCE -O1 -g -Wall -Werror -pthread $("$PHP_CONFIG" --includes) -o "$out/threads" tests/embed/threads.c \
		-L"$lib" -lphp -Wl,-rpath,"$lib" -ldl
	printf "extension=%s\ntable.memory=64M\n%s\n" "$SO" "${EMBED_INI:-}" >"$out/conf.d/table.ini"
	# Only this directory's INI files: the PHP's own scan dir may load another table.so.
	PHP_INI_SCAN_DIR="$out/conf.d" ${EMBED_WRAPPER:-} "$out/threads" "$@"
	exit
fi

tsan_failed() { echo "$*"; echo "embed-tsan: 0 passed, 1 failed"; exit 1; }
[[ "$(nm -D "$SO" 2>/dev/null)" == *" U __tsan_func_entry"* ]] || tsan_failed "$SO is not built with -fsanitize=thread"
# shellcheck disable=SC2046 # php-config's flags are words
clang -std=gnu11 -D_GNU_SOURCE -O1 -g -fsanitize=thread -fno-omit-frame-pointer -Wall -Werror -pthread \
	$("$PHP_CONFIG" --includes) -o "$out/threads" tests/embed/threads.c -L"$lib" -lphp -Wl,-rpath,"$lib" -ldl \
	|| tsan_failed "the harness did not build with clang -fsanitize=thread"
printf "table.memory=64M\n%s\n" "${EMBED_INI:-}" >"$out/conf.d/table.ini"
norandom=()
setarch "$(uname -m)" -R true >/dev/null 2>&1 && norandom=(setarch "$(uname -m)" -R)
log="$out/tsan.log"
set +e
# exitcode=0: the reports are counted below, by whose frames they show.
EMBED_MODULE="$SO" PHP_INI_SCAN_DIR="$out/conf.d" USE_ZEND_ALLOC=0 \
	TSAN_OPTIONS="halt_on_error=0:exitcode=0:second_deadlock_stack=1${TSAN_OPTIONS:+:$TSAN_OPTIONS}" \
	"${norandom[@]}" ${EMBED_WRAPPER:-} "$out/threads" "$@" 2>&1 | tee "$log"
rc=${PIPESTATUS[0]}
# Each report runs from its WARNING line to a line of '=' signs.
ours=$(awk '/^WARNING: ThreadSanitizer/ { n++; on = 1 } on && /table\.so/ { hit[n] = 1 } /^==================$/ { on = 0 }
	END { c = 0; for (i in hit) c++; print c }' "$log")
all=$(grep -c '^WARNING: ThreadSanitizer' "$log")
harness=$(grep -aE '^embed-threads: [0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1)
[ -n "$harness" ] || tsan_failed "the harness ended without its summary (exit $rc)"
p=$(sed -E 's/^[^:]+: ([0-9]+) passed.*/\1/' <<<"$harness") f=$(sed -E 's/^[^:]+: [0-9]+ passed, ([0-9]+) failed.*/\1/' <<<"$harness")
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
