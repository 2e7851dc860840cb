#!/usr/bin/env bash
# tests/embed/run.sh - build tests/embed/threads.c against a thread-safe PHP's embed SAPI (libphp.so, from
# scripts/build-zts-php.sh) and run it with a table.so built for that PHP: one process, many threads
# running PHP requests, exact totals (see threads.c). It stands in for FrankenPHP, which cannot be built
# here: FrankenPHP runs its worker threads the same way, on the embed SAPI's functions.
#
#   bash tests/embed/run.sh PHP_CONFIG TABLE_SO [THREADS [REQUESTS [ITERATIONS]]]
#   EMBED_WRAPPER="valgrind --tool=helgrind"   run the harness under a wrapper
#   EMBED_INI="table.zero_copy=1"             more INI lines (one per line)
#
# Builds into EMBED_BUILD_DIR (default build/embed-threads/, gitignored). Ends with
# `embed-threads: N passed, N failed`.
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
# shellcheck disable=SC2046 # php-config's flags are words
${CC:-cc} -std=gnu11 -D_GNU_SOURCE -O1 -g -Wall -Werror -pthread $("$PHP_CONFIG" --includes) -o "$out/threads" tests/embed/threads.c \
	-L"$lib" -lphp -Wl,-rpath,"$lib"
printf "extension=%s\ntable.memory=64M\n%s\n" "$SO" "${EMBED_INI:-}" >"$out/conf.d/table.ini"
# Only this directory's INI files: the PHP's own scan dir may load another table.so.
PHP_INI_SCAN_DIR="$out/conf.d" ${EMBED_WRAPPER:-} "$out/threads" "$@"
