#!/usr/bin/env bash
# benchmarks/redis_tier/run.sh - the Redis tier (docs/redis-tier.md) against phpredis, on this machine.
#
#   bash benchmarks/redis_tier/run.sh [--repeat N] [--quick] [--cluster|--cluster-only] [--so PATH/table.so]
#
# Builds table.so with the tier in build/redis-tier/ (unless --so names one), starts its own redis-server
# on a free loopback TCP port (stopped on exit), and runs every case N times (default 3), each a PHP
# process of its own with
#   php -n -d extension=igbinary -d extension=redis -d extension=table.so \
#       -d table.redis=tcp://127.0.0.1:PORT -d table.redis_namespaces=tiered -d table.redis_max_stale=60000 \
#       CASE.php ARGS
# (igbinary only when this phpredis needs it). table.redis_max_stale is a minute, not the default second,
# so that a helper the machine's load keeps off a CPU for a while does not turn the L1 stale: the cases
# measure the L1, a miss and the helper's invalidations, and check that they measured them (an L1 that went
# stale mid-pass reads Redis instead and fails the case); how long a stale L1 is trusted is not what they
# measure, and reading it costs the same whatever the setting.
#   a. l1_hit.php                  an L1 hit of a tiered get() vs phpredis GET of the same key
#   b. miss.php                    a miss (GET+PTTL, then the fill) vs phpredis GET, distinct keys
#   c. invalidation_latency.php    host A set()s, host B (another process) sees it: p50, p99, max
#   d. invalidation_throughput.php 1 and 2 phpredis writers vs host H's helper: does it keep up?
# Every case checks every value it reads and that it measured the path it names (Redis's GET count),
# and fails otherwise. The tables (report.php) give medians over the repeats, and for a and b the median
# of the same-run factors. --quick: tiny counts, one repeat (benchmarks/test/redis_tier_check.sh).
# --cluster: also a Redis Cluster of our own (3 masters, no replicas, on free loopback ports, made with
# redis-cli --cluster create) and cases a and b again against it: table.redis=cluster://p1,p2,p3 vs
# phpredis's RedisCluster GET (rows marked RedisCluster; its keys spread over the 3 masters by slot).
# --cluster-only: those two alone.
# PHP is the one of php-config (PHP_CONFIG picks another), as in scripts/bench.sh. NO_INSTALL=1 skips
# apt. Exit status: 0 done, 1 a case failed, 2 usage, 3 cannot run here (no tier in the build, no
# phpredis or no redis-server).
set -euo pipefail
# The body is one compound command, read whole before it runs: editing this file mid-run is safe.
{
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../../scripts/lib.sh"
cd "$TABLE_ROOT"
cmdline="bash benchmarks/redis_tier/run.sh $*"
[ "${NO_INSTALL:-0}" = 1 ] && cmdline="NO_INSTALL=1 $cmdline"

repeat=3 quick=0 cluster=0 so=""
usage() { sed -n '2,28p' "$0" >&2; exit 2; }
while [ $# -gt 0 ]; do
	case $1 in
		--repeat) [ $# -ge 2 ] && [[ $2 =~ ^[1-9][0-9]*$ ]] || usage; repeat=$2; shift 2 ;;
		--quick) quick=1; shift ;;
		--cluster) cluster=1; shift ;;
		--cluster-only) cluster=2; shift ;;
		--so) [ $# -ge 2 ] || usage; so=$2; shift 2 ;;
		*) usage ;;
	esac
done
[ $quick = 1 ] && repeat=1
skip() { log "cannot run: $*"; exit 3; }

if [ "${NO_INSTALL:-0}" != 1 ]; then
	pkgs=(php-igbinary php-redis redis-server)
	[ -z "$so" ] && pkgs+=(build-essential autoconf automake libtool pkg-config libhiredis-dev $(php_deb_pkgs dev cli))
	apt_ensure "${pkgs[@]}"
fi
php_tools ${PHP_CONFIG:+"$PHP_CONFIG"}
if [ -z "$so" ]; then
	TABLE_HIREDIS=1 table_build "$TABLE_ROOT/build/redis-tier" 0 "${TABLE_CFLAGS:--O2 -g -Wall -Wextra -Werror}" >&2 \
		|| die "build failed (log: build/redis-tier.build.log)"
	so=$EXT_SO
fi
[ -f "$so" ] || die "no such file: $so"
so=$(cd "$(dirname "$so")" && pwd)/$(basename "$so")

"$PHP_BIN" -n -d "extension=$so" -r 'exit(array_key_exists("redis", Shm\Table::stats()) ? 0 : 3);' \
	|| skip "$so was built without the Redis tier (--with-table-hiredis)"
command -v redis-server >/dev/null 2>&1 || skip "no redis-server installed"
# Debian's phpredis is linked against igbinary (and loads only after it); another build may not be.
phpredis=()
for pre in "" igbinary "igbinary msgpack"; do
	try=()
	for e in $pre redis; do try+=(-d "extension=$e"); done
	if [ "$("$PHP_BIN" -n -d display_startup_errors=1 "${try[@]}" -r 'echo extension_loaded("redis") ? "ok" : "no";' 2>&1)" = ok ]; then
		phpredis=("${try[@]}"); break
	fi
done
[ ${#phpredis[@]} -gt 0 ] || skip "phpredis does not load into $PHP_BIN (php-redis)"

work=$(mktemp -d "${TMPDIR:-/tmp}/redis-tier-bench.XXXXXX")
SERVER_PIDS=()
# The servers are waited for before their folders go: one still shutting down writes into them.
cleanup() {
	if [ ${#SERVER_PIDS[@]} -gt 0 ]; then
		kill "${SERVER_PIDS[@]}" 2>/dev/null
		wait "${SERVER_PIDS[@]}" 2>/dev/null
	fi
	rm -rf "$work" || true
}
trap cleanup EXIT
free_port() { "$PHP_BIN" -n -r '$s = stream_socket_server("tcp://127.0.0.1:0"); echo explode(":", stream_socket_get_name($s, false))[1];'; }
# start_server DIR [ARG...]: a redis-server of our own on a free loopback port (SERVER_PORT), in DIR.
# The free port is the kernel's pick, given back before redis-server takes it: on a busy machine another
# server (a test's) may take it first, and ours then fails to bind while theirs answers our PING. So the
# server must say it is ours (INFO's process_id), or another port is tried.
start_server() {
	local dir=$1 ours=0 port spid pid
	shift
	mkdir -p "$dir"
	for _attempt in 1 2 3 4 5; do
		port=$(free_port)
		redis-server --bind 127.0.0.1 --port "$port" --save '' --appendonly no --dir "$dir" --logfile "$dir/redis.log" "$@" &
		spid=$!
		for _ in $(seq 200); do
			kill -0 "$spid" 2>/dev/null || break   # it could not bind: try another port
			pid=$(redis-cli -h 127.0.0.1 -p "$port" info server 2>/dev/null | tr -d '\r' | sed -n 's/^process_id://p' || true)
			[ "$pid" = "$spid" ] && { ours=1; break; }
			sleep 0.05
		done
		[ $ours = 1 ] && break
		kill "$spid" 2>/dev/null; wait "$spid" 2>/dev/null
	done
	[ $ours = 1 ] || { cat "$dir/redis.log" >&2; die "could not start a redis-server of our own on a free port"; }
	SERVER_PIDS+=("$spid")
	SERVER_PORT=$port
}
start_server "$work/single"
port=$SERVER_PORT

php_cmd=("$PHP_BIN" -n "${phpredis[@]}" -d "extension=$so" -d "table.redis=tcp://127.0.0.1:$port" -d table.redis_namespaces=tiered -d table.redis_max_stale=60000)
export TIER_BENCH_HOST=127.0.0.1 TIER_BENCH_PORT=$port
TIER_BENCH_PHP=$("$PHP_BIN" -n -r 'echo json_encode(array_slice($argv, 1));' -- "${php_cmd[@]}")
export TIER_BENCH_PHP

if [ $quick = 1 ]; then
	cases=("l1_hit.php 2000 200 1" "miss.php 200 1" "invalidation_latency.php 20" \
		"invalidation_throughput.php 1 0.3" "invalidation_throughput.php 2 0.3")
	cluster_cases=("l1_hit.php 2000 200 1" "miss.php 200 1")
else
	cases=("l1_hit.php 300000 20000 3" "miss.php 20000 3" "invalidation_latency.php 1000" \
		"invalidation_throughput.php 1 3" "invalidation_throughput.php 2 3")
	cluster_cases=("l1_hit.php 300000 20000 3" "miss.php 20000 3")
fi

[ $cluster = 2 ] && cases=()
# --cluster: 3 masters, the 16384 slots split by redis-cli --cluster create; ready when every node says
# cluster_state:ok (the deadline only tells a hang from a slow machine).
if [ $cluster != 0 ]; then
	"$PHP_BIN" -n -d "extension=$so" -d table.redis=cluster://127.0.0.1:1 -d table.redis_namespaces=tiered \
		-r 'try { Shm\Table::get("k", "tiered"); } catch (Throwable $e) { echo $e->getMessage(); }' 2>&1 \
		| grep -q 'not valid' && skip "$so does not know cluster:// (built before the cluster client)"
	seeds=()
	for i in 1 2 3; do
		start_server "$work/cluster$i" --cluster-enabled yes --cluster-config-file nodes.conf --cluster-port "$(free_port)" \
			--cluster-node-timeout 5000
		seeds+=("127.0.0.1:$SERVER_PORT")
	done
	redis-cli --cluster create "${seeds[@]}" --cluster-replicas 0 --cluster-yes >"$work/cluster-create.log" 2>&1 \
		|| { cat "$work/cluster-create.log" >&2; die "redis-cli --cluster create failed"; }
	for _ in $(seq 1200); do
		ok=0
		for s in "${seeds[@]}"; do
			redis-cli -h 127.0.0.1 -p "${s#*:}" cluster info 2>/dev/null | grep -q '^cluster_state:ok' && ok=$((ok + 1))
		done
		[ $ok = 3 ] && break
		sleep 0.05
	done
	[ $ok = 3 ] || die "the cluster did not reach cluster_state:ok on every node"
	cluster_seeds=$(IFS=,; echo "${seeds[*]}")
	cluster_cmd=("$PHP_BIN" -n "${phpredis[@]}" -d "extension=$so" -d "table.redis=cluster://$cluster_seeds" -d table.redis_namespaces=tiered -d table.redis_max_stale=60000)
fi

echo "command: $cmdline"
echo "PHP:     $("$PHP_BIN" -v | head -n 1); phpredis $("$PHP_BIN" -n "${phpredis[@]}" -r 'echo phpversion("redis");'); $(redis-server --version | cut -d' ' -f1-3)"
echo "each:    ${php_cmd[*]/#$TABLE_ROOT\//} benchmarks/redis_tier/CASE.php ARGS"
if [ ${#cases[@]} -gt 0 ]; then
	echo "cases:   $(printf '%s; ' "${cases[@]}")repeats: $repeat; $(nproc) CPUs"
else
	echo "cases:   only the cluster's; repeats: $repeat; $(nproc) CPUs"
fi
[ $cluster != 0 ] && echo "cluster: ${cluster_cmd[*]/#$TABLE_ROOT\//} (3 masters); cases $(printf '%s; ' "${cluster_cases[@]}")"
results="$work/results"
: >"$results"
for ((r = 1; r <= repeat; r++)); do
	for c in "${cases[@]+"${cases[@]}"}"; do
		# shellcheck disable=SC2086 # the case's arguments, split on spaces on purpose
		set -- $c
		log "repeat $r/$repeat: $c"
		out=$("${php_cmd[@]}" "$HERE/$1" "${@:2}") || die "case failed: $c"
		grep '^RESULT ' <<<"$out" | sed 's/^RESULT //' >>"$results"
	done
	[ $cluster != 0 ] || continue
	for c in "${cluster_cases[@]}"; do
		# shellcheck disable=SC2086 # the case's arguments, split on spaces on purpose
		set -- $c
		log "repeat $r/$repeat: cluster: $c"
		out=$(TIER_BENCH_CLUSTER=$cluster_seeds "${cluster_cmd[@]}" "$HERE/$1" "${@:2}") || die "case failed: cluster: $c"
		grep '^RESULT ' <<<"$out" | sed 's/^RESULT //' >>"$results"
	done
done
echo
"$PHP_BIN" -n "$HERE/report.php" "$results" "$repeat"
exit
}
