#!/usr/bin/env bash
# scripts/bench.sh - build table.so with release flags and run the main benchmark.
#
#   bash scripts/bench.sh                          InMemoryGet with 1 and 2 workers
#   bash scripts/bench.sh --runs 5 --json --out r.json    extra arguments go to benchmarks/run
#   bash scripts/bench.sh BenchmarkInMemorySet.php        a case given replaces the default case
#   bash scripts/bench.sh --zero-copy              the same with -d table.zero_copy=1 (zero-copy reads
#                                                  in the forked CLI workers, which end with their process)
#
# It runs exactly:
#   php -d extension=build/bench/modules/table.so -d apc.enable_cli=1 benchmarks/run \
#       --workers 1,2 BenchmarkInMemoryGet.php [ARGS...]
# (--workers 1,2 unless ARGS give --workers; BenchmarkInMemoryGet.php unless ARGS name a case).
# The module is built in build/bench/ from a fresh copy of the sources (see table_build in lib.sh).
# When redis-server is installed but nothing answers on 127.0.0.1:6379, it starts one for the Redis
# subject and stops it afterwards. Environment: NO_INSTALL=1 skips apt, PHP_CONFIG picks another PHP,
# TABLE_CFLAGS overrides the release flags (-O2 -g -Wall -Wextra -Werror).
set -euo pipefail
# The body is one compound command, read whole before it runs: editing this file mid-run is safe.
{
. "$(dirname "$0")/lib.sh"
cd "$TABLE_ROOT"

if [ "${NO_INSTALL:-0}" != 1 ]; then
	apt_ensure build-essential autoconf automake libtool pkg-config \
		$(php_deb_pkgs dev cli) php-apcu php-igbinary php-redis redis-server
fi
php_tools ${PHP_CONFIG:+"$PHP_CONFIG"}
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}
table_build "$TABLE_ROOT/build/bench" 0 "${TABLE_CFLAGS:--O2 -g -Wall -Wextra -Werror}" >&2 \
	|| die "build failed (log: build/bench.build.log)"

args=() php_args=()
for a in "$@"; do
	case "$a" in
		--zero-copy) php_args+=(-d table.zero_copy=1) ;;
		*) args+=("$a") ;;
	esac
done
have_workers=0 have_case=0
for a in "${args[@]+"${args[@]}"}"; do
	case "$a" in
		--workers|--workers=*) have_workers=1 ;;
		*.php) have_case=1 ;;
	esac
done
[ $have_case = 1 ] || args=(BenchmarkInMemoryGet.php "${args[@]+"${args[@]}"}")
[ $have_workers = 1 ] || args=(--workers 1,2 "${args[@]}")

REDIS_PID=""
cleanup() { [ -n "$REDIS_PID" ] && kill "$REDIS_PID" 2>/dev/null; true; }
trap cleanup EXIT
if command -v redis-server >/dev/null 2>&1 && ! redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1; then
	log "starting redis-server on 127.0.0.1:6379 (for the Redis subject)"
	mkdir -p build
	redis-server --bind 127.0.0.1 --port 6379 --save '' --appendonly no --logfile "$TABLE_ROOT/build/redis.log" &
	REDIS_PID=$!
	for _ in $(seq 50); do redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1 && break; sleep 0.1; done
fi

[ -f benchmarks/run ] || die "benchmarks/run does not exist yet"
cmd=("$PHP_BIN" -d "extension=$EXT_SO" -d apc.enable_cli=1 "${php_args[@]+"${php_args[@]}"}" benchmarks/run "${args[@]}")
log "running: ${cmd[*]}"
"${cmd[@]}"
exit
}
