#!/usr/bin/env bash
# benchmarks/threads/run.sh - Shm\Table against APCu with threads as the workers (bench.c: the runner's
# InMemoryGet and InMemoryIncrement in threads of one process on a thread-safe PHP's embed SAPI).
#
#   bash benchmarks/threads/run.sh [--php PHP_CONFIG] [--so TABLE_SO] [--threads 1,2] [--seconds 0.5]
#                                  [--repeat 11] [--serializers php,default]
#   bash benchmarks/threads/run.sh PHP_CONFIG TABLE_SO    as scripts/test.sh's bench-threads layer runs it,
#                                  with BENCH_SECONDS=0.05 BENCH_REPEAT=1: the checks only, briefly
#
# --php: a thread-safe PHP with the embed SAPI (default: the release ZTS PHP of scripts/build-zts-php.sh,
# PHP_ZTS_DEBUG=0, built when it is not in the cache yet: ~15 minutes on 2 cores; a debug PHP's figures
# mean nothing). table.so is built for it (-O2, in build/bench-threads/<its prefix's name>/) unless --so
# names one, APCu by scripts/build-zts-apcu.sh from Debian's php-apcu source. Each apc.serializer (PHP_INI_SYSTEM) is a run
# of its own, Table measured in each beside APCu: each table's Factor is a same-run ratio.
# Ends with `bench-threads: N passed, N failed` over the runs: the checks (every get a hit, the counters
# exact), never the speed.
set -uo pipefail
# The body is one compound command, read whole before it runs: editing this file mid-run is safe.
{
. "$(dirname "$0")/../../scripts/lib.sh"
cd "$TABLE_ROOT" || exit 1

PHP_ARG="" SO="" THREADS=1,2 SECONDS_EACH=${BENCH_SECONDS:-0.5} REPEAT=${BENCH_REPEAT:-11} SERIALIZERS=php,default
while [ $# -gt 0 ]; do
	case "$1" in
		--php) PHP_ARG=$2; shift ;;   --php=*) PHP_ARG=${1#*=} ;;
		--so) SO=$2; shift ;;   --so=*) SO=${1#*=} ;;
		--threads) THREADS=$2; shift ;;   --threads=*) THREADS=${1#*=} ;;
		--seconds) SECONDS_EACH=$2; shift ;;   --seconds=*) SECONDS_EACH=${1#*=} ;;
		--repeat) REPEAT=$2; shift ;;   --repeat=*) REPEAT=${1#*=} ;;
		--serializers) SERIALIZERS=$2; shift ;;   --serializers=*) SERIALIZERS=${1#*=} ;;
		-h|--help) sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
		-*) log "unknown option: $1"; exit 2 ;;
		*) if [ -z "$PHP_ARG" ]; then PHP_ARG=$1; else SO=$1; fi ;;
	esac
	shift
done
failed() { echo "bench-threads: $*"; echo "bench-threads: 0 passed, 1 failed"; exit 1; }

if [ -z "$PHP_ARG" ]; then
	PHP_ARG=$(PHP_ZTS_DEBUG=0 bash scripts/build-zts-php.sh) || failed "no release ZTS PHP (scripts/build-zts-php.sh)"
fi
[ -d "$PHP_ARG" ] && PHP_ARG="$PHP_ARG/bin/php-config"
php_tools "$PHP_ARG"
prefix=$("$PHP_CONFIG" --prefix)
[ "$("$PHP_BIN" -r 'echo PHP_ZTS;')" = 1 ] || failed "$PHP_CONFIG is not a thread-safe PHP"
[[ "$("$PHP_BIN" -v)" == *DEBUG* ]] && log "WARNING: $PHP_BIN is a debug build: its figures are not worth quoting"
lib=$(dirname "$(find "$prefix/lib" -maxdepth 2 -name libphp.so | head -n 1)")
[ -f "$lib/libphp.so" ] || failed "no libphp.so under $prefix/lib: build the PHP with --enable-embed"

out="$TABLE_ROOT/build/bench-threads/$(basename "$prefix")"
mkdir -p "$out"
if [ -n "$SO" ]; then
	[ -f "$SO" ] || failed "no table.so: $SO"
	EXT_SO=$(cd "$(dirname "$SO")" && pwd)/$(basename "$SO")
else
	# The Redis tier is refused on a thread-safe PHP; the rest as the release build has it.
	TABLE_HIREDIS=0 table_build "$out/table" 0 "-O2 -g -Wall -Wextra -Werror" || failed "table.so did not build"
fi
apcu_so=$(bash scripts/build-zts-apcu.sh "$PHP_CONFIG") || failed "APCu did not build (scripts/build-zts-apcu.sh)"
# shellcheck disable=SC2046 # php-config's flags are words
${CC:-cc} -std=gnu11 -D_GNU_SOURCE -O2 -g -Wall -Wextra -Werror -pthread $("$PHP_CONFIG" --includes) \
	-o "$out/bench" benchmarks/threads/bench.c -L"$lib" -lphp -Wl,-rpath,"$lib" || failed "bench.c did not build"

log "$("$PHP_BIN" -v | head -n 1); table.so $EXT_SO; apcu.so $apcu_so"
p=0 f=0
for s in ${SERIALIZERS//,/ }; do
	mkdir -p "$out/conf.d-$s"
	printf 'extension=%s\nextension=%s\napc.enable_cli=1\napc.shm_size=64M\napc.serializer=%s\ntable.memory=64M\n' \
		"$EXT_SO" "$apcu_so" "$s" >"$out/conf.d-$s/bench.ini"
	echo
	# Only this directory's INI files: the PHP's own scan dir may load another table.so or apcu.so.
	PHP_INI_SCAN_DIR="$out/conf.d-$s" "$out/bench" "$TABLE_ROOT/benchmarks/data/meteorites.json" \
		"$THREADS" "$SECONDS_EACH" "$REPEAT" | tee "$out/run-$s.log"
	c=$(grep -aE '^bench-threads: [0-9]+ passed, [0-9]+ failed' "$out/run-$s.log" | tail -n 1 |
		sed -E 's/^[^:]+: ([0-9]+) passed, ([0-9]+) failed.*/\1 \2/')
	if [ -z "$c" ]; then f=$((f + 1)); continue; fi
	set -- $c
	p=$((p + $1)) f=$((f + $2))
done
echo
echo "bench-threads: $p passed, $f failed"
[ "$f" -eq 0 ]
exit
}
