#!/usr/bin/env bash
# scripts/test.sh - build the extension from a clean copy and run every test layer.
#
#   bash scripts/test.sh                 everything, against Debian's PHP (php-config on PATH)
#   bash scripts/test.sh --debian13      the same inside a Debian 13 tree, on its PHP 8.4 (scripts/debian-tree.sh)
#   bash scripts/test.sh --quick         PHPT only
#   bash scripts/test.sh tests/03_ttl    PHPT only, just these paths (files or folders under tests/)
#
# Layers, in order (default: all of them):
#   zend-free  core/ compiles on its own with no PHP include path, and no file in it names a PHP header
#   core       core/test/test_*.c under ASan+UBSan          (make -C core test)
#   redis      redis/test/test_*.c under ASan+UBSan against redis-server processes they start
#              (make -C redis test; skipped when hiredis or redis-server is missing, unless
#              REDIS_TESTS_REQUIRED=1, which CI sets; so are tests/15_redis_tier's PHPT)
#   tsan       the same C tests under ThreadSanitizer        (make -C core test-tsan)
#   fuzz       each core/fuzz/*.c libFuzzer target for FUZZ_TIME seconds (default 20)  (make -C core fuzz)
#   arginfo    table_arginfo.h is what scripts/gen-arginfo.sh makes of table.stub.php (run in a copy)
#   phpt       the PHPT suite in tests/ via run-tests.php, on the freshly built table.so
#              (after the build, scripts/check-binding-layers.sh: table.c only calls down into binding/)
#   smoke      benchmarks/smoke.sh, a short run of every benchmark case, and benchmarks/test/*_check.sh
#   docs       scripts/doc-test.sh: the docs' relative links and anchors resolve, and their examples marked
#              runnable run on the table.so (the doc test)
#   adapters   php/tests/run.sh: table/cache's PHPUnit suite (PSR-16, PSR-6, Symfony, Laravel) on the table.so
#   observe    status/test/run.sh: the status page served by `php -S`, checked in headless Chromium
#   embed      (not by default: it needs a thread-safe PHP with the embed SAPI, scripts/build-zts-php.sh)
#              tests/embed/run.sh: 8 threads of one process running PHP requests on the table, exact
#              totals (with --zero-copy: table.zero_copy=1 there too); when table.so has the Redis tier,
#              again on a tiered namespace against a redis-server of its own
#   apache     (not by default: it needs a thread-safe PHP's mod_php, PHP_ZTS_APACHE=1 scripts/build-zts-php.sh)
#              tests/apache/run.sh: Apache's event MPM on loopback, 2 processes x 16 threads, 20,000
#              increments at concurrency 16, values handed between requests, a timed-out request's holds
#   bench-threads (not by default: a thread-safe PHP with the embed SAPI) benchmarks/threads/run.sh, briefly
#              (0.05 s a measurement), on this table.so beside APCu built for the same PHP: its checks only
#              (every get a hit, the counters' sums exact, both serializers), never its speed
#   embed-tsan (not by default: a thread-safe PHP with the embed SAPI, as for embed) table.so built by clang
#              with -fsanitize=thread (in build/<label>-tsan/), and tests/embed/run.sh's harness under
#              ThreadSanitizer (EMBED_TSAN=1), once copying and once with table.zero_copy=1: a race
#              report with a table.so frame fails it (the PHP itself is not instrumented; see run.sh)
#
# Options (environment variables in brackets):
#   --quick               same as --layers=phpt
#   TEST_SKIP_LAYERS=a,b  leave these out of the chosen layers (.ci/run runs adapters and observe as steps of their own)
#   --layers=a,b,...      pick layers                                      [TEST_LAYERS]
#   --php=PATH            the PHP to build and test against: its php-config, its php binary, or its
#                         install prefix (e.g. /var/cache/table-ci/php-debug from build-debug-php.sh)  [PHP_CONFIG]
#   --igbinary            configure --enable-table-igbinary                [TABLE_IGBINARY=1]
#   --zero-copy           run PHPT with -d table.zero_copy=1 (zero-copy reads forced on)  [TABLE_ZERO_COPY=1]
#   --valgrind            run PHPT under valgrind (run-tests -m; leaks show as LEAKED)  [PHPT_VALGRIND=1]
#   PHPT_TIMEOUT=S        per-test time limit (default 300 s, 600 s under valgrind)
#   TABLE_REDIS_SERVER=B  the server the redis layer and tests/15_redis_tier start: redis-server (default)
#                         or valkey-server (Debian 13; its client valkey-cli); installed from the package of that name
#   --no-install          don't apt-get anything                           [NO_INSTALL=1]
#   --debian13            run all of this inside a Debian 13 tree (scripts/debian-tree.sh: debootstrap'ed,
#                         cached in /var/cache/table-ci, entered with chroot in a mount namespace of its
#                         own) on Debian 13's PHP, with the build in build/debian13/ [TABLE_BUILD_DIR]
#   --label=NAME          name of the PHPT layer and build dir (default: release|debug[-igbinary])
#   -jN                   parallel jobs for make and the C tests (default: nproc)  [JOBS]
#   PHPT_JOBS=N           parallel PHPT tests (default: twice JOBS: many tests wait on their children,
#                         a TTL or a server, and at JOBS the cores sat half idle; under valgrind, where
#                         the tests keep the cores busy, JOBS)
#
# The extension is built in build/<label>/ (gitignored) from a fresh copy of the sources, the PHPT
# files run from a copy in build/<label>/tests, and the core layers build in build/core/, so a run never
# touches the working tree and never collides with a build or test run someone else has going in it.
# Logs: build/*.log, build/<label>.build.log, build/<label>/phpt.log.
#
# Output: a line per layer, then as the very last line `N passed, N failed[, N skipped]` over all
# layers. Exit status 1 when anything failed.
set -uo pipefail
# The body is one compound command, read whole before it runs: editing this file mid-run is safe.
{
. "$(dirname "$0")/lib.sh"
cd "$TABLE_ROOT"

REDIS_SERVER=${TABLE_REDIS_SERVER:-redis-server}
LAYERS=${TEST_LAYERS:-zend-free,core,redis,tsan,fuzz,arginfo,phpt,smoke,docs,adapters,observe}
IGBINARY=${TABLE_IGBINARY:-0}
ZERO_COPY=${TABLE_ZERO_COPY:-0}
VALGRIND=${PHPT_VALGRIND:-0}
NO_INSTALL=${NO_INSTALL:-0}
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}
LABEL=""
PHP_ARG=${PHP_CONFIG:-}
PHPT_PATHS=()
IN_TREE=0
ARGS=("$@")

usage() { sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit "${1:-0}"; }
while [ $# -gt 0 ]; do
	case "$1" in
		--quick) LAYERS=phpt ;;
		--layers=*) LAYERS=${1#*=} ;;
		--layers) LAYERS=$2; shift ;;
		--php=*) PHP_ARG=${1#*=} ;;
		--php) PHP_ARG=$2; shift ;;
		--igbinary) IGBINARY=1 ;;
		--zero-copy) ZERO_COPY=1 ;;
		--valgrind) VALGRIND=1 ;;
		--no-install) NO_INSTALL=1 ;;
		--debian13) IN_TREE=1 ;;
		--label=*) LABEL=${1#*=} ;;
		-j*) JOBS=${1#-j}; [ -n "$JOBS" ] || { JOBS=$2; shift; } ;;
		-h|--help) usage 0 ;;
		-*) log "unknown option: $1"; usage 2 >&2 ;;
		*) PHPT_PATHS+=("$1"); [[ "$LAYERS" == *phpt* ]] && [ -z "${TEST_LAYERS:-}" ] && LAYERS=phpt ;;
	esac
	shift
done
has_layer() { [[ ",$LAYERS," == *",$1,"* && ",${TEST_SKIP_LAYERS:-}," != *",$1,"* ]]; }

# --- another Debian release: this same script, inside its tree -------------------------------------------
if [ $IN_TREE = 1 ]; then
	inner=()
	for a in "${ARGS[@]+"${ARGS[@]}"}"; do [ "$a" = --debian13 ] || inner+=("$a"); done
	# The checkout is /table in the tree; its builds go to build/debian13/, apart from the host's.
	TABLE_TREE_ENV="TABLE_BUILD_DIR=/table/build/debian13 TEST_LAYERS=${TEST_LAYERS:-} \
TEST_SKIP_LAYERS=${TEST_SKIP_LAYERS:-} REDIS_TESTS_REQUIRED=${REDIS_TESTS_REQUIRED:-} TABLE_REDIS_SERVER=${TABLE_REDIS_SERVER:-} FUZZ_TIME=${FUZZ_TIME:-} PHPT_TIMEOUT=${PHPT_TIMEOUT:-} PHPT_JOBS=${PHPT_JOBS:-} JOBS=$JOBS" \
		bash scripts/debian-tree.sh run bash scripts/test.sh "${inner[@]+"${inner[@]}"}"
	exit
fi

# --- the PHP to use ------------------------------------------------------------------------------------
if [ -n "$PHP_ARG" ]; then
	if [ -d "$PHP_ARG" ]; then PHP_ARG="$PHP_ARG/bin/php-config"
	elif [[ "$(basename "$PHP_ARG")" != php-config* ]] && [ -x "$(dirname "$PHP_ARG")/php-config" ]; then
		PHP_ARG="$(dirname "$PHP_ARG")/php-config"
	fi
	[[ "$PHP_ARG" == /* ]] || PHP_ARG="$PWD/$PHP_ARG"
fi

# --- packages ------------------------------------------------------------------------------------------
# The C toolchain first: the core layers run before any PHP package is installed, so on a bare machine
# they prove that core/ builds and passes with no PHP present at all.
if [ "$NO_INSTALL" != 1 ]; then
	pkgs=(build-essential autoconf automake libtool pkg-config coreutils liblz4-dev libzstd-dev)
	{ has_layer tsan || has_layer fuzz || has_layer embed-tsan; } && pkgs+=(clang libclang-rt-dev)
	has_layer redis && pkgs+=(libhiredis-dev libssl-dev openssl "$REDIS_SERVER")   # libssl-dev + openssl: tls:// (hiredis_ssl; its tests make certificates)
	apt_ensure "${pkgs[@]}"
fi
# Then the PHP side: Debian's PHP and the extensions the tests and benchmarks compare with or depend on.
setup_php() {
	if [ "$NO_INSTALL" != 1 ]; then
		local pkgs=()
		[ -z "$PHP_ARG" ] && pkgs+=($(php_deb_pkgs dev cli) php-apcu php-igbinary php-redis php-parser)
		has_layer smoke && pkgs+=(redis-server php-redis php-apcu memcached php-memcached)  # the eviction benchmark's peers
		has_layer smoke && pkgs+=(libxml2-utils)  # xmllint, for benchmarks/test/svg_check.sh
		has_layer smoke && pkgs+=(valgrind)       # callgrind, for benchmarks/test/key_length_check.sh
		has_layer phpt && pkgs+=(prometheus)      # promtool, for tests/12_observability/metrics_promtool.phpt
		has_layer phpt && pkgs+=(libhiredis-dev libssl-dev openssl "$REDIS_SERVER" "${REDIS_SERVER%-server}-sentinel")   # the Redis tier, and tests/15_redis_tier (sentinel_*.phpt; tls.phpt: libssl-dev for a TLS build, openssl for its certificates)
		{ has_layer embed || has_layer embed-tsan; } && pkgs+=(libhiredis-dev "$REDIS_SERVER")   # the embed harness's Redis tier pass
		has_layer observe && pkgs+=(chromium php-xml)
		[ "$VALGRIND" = 1 ] && pkgs+=(valgrind)
		[ ${#pkgs[@]} -eq 0 ] || apt_ensure "${pkgs[@]}"
	fi
	php_tools ${PHP_ARG:+"$PHP_ARG"}
	local dbg=0
	[[ "$("$PHP_BIN" -v)" == *DEBUG* ]] && dbg=1
	if [ -z "$LABEL" ]; then
		LABEL=$([ $dbg = 1 ] && echo debug || echo release)
		[ "$IGBINARY" = 1 ] && LABEL="$LABEL-igbinary"
	fi
	log "PHP: $("$PHP_BIN" -v | head -n 1) [$PHP_CONFIG]; build: build/$LABEL"
}
log "layers: $LAYERS"

# --- bookkeeping ---------------------------------------------------------------------------------------
TOTAL_P=0 TOTAL_F=0 TOTAL_S=0
SUMMARY=()
# Each line ends with the seconds since the one before ([Ns]): layers run one after another, so that is the
# layer's time (with whatever was installed or built for it).
LAST_RECORD=$SECONDS
record() { # layer passed failed [skipped] [note]
	local s=${4:-0} line
	TOTAL_P=$((TOTAL_P + $2)) TOTAL_F=$((TOTAL_F + $3)) TOTAL_S=$((TOTAL_S + s))
	line="$1: $2 passed, $3 failed"
	[ "$s" -gt 0 ] && line="$line, $s skipped"
	[ -n "${5:-}" ] && line="$line ($5)"
	line="$line [$((SECONDS - LAST_RECORD))s]"
	LAST_RECORD=$SECONDS
	SUMMARY+=("$line")
	[ -n "${RECORD_QUIET:-}" ] || echo "$line"
}
banner() { printf '\n===== %s =====\n' "$*"; }
# The last `NAME: N passed, N failed` line of a log, as "N M"; empty when there is none.
counts_from() { grep -aE "^$1: [0-9]+ passed, [0-9]+ failed" "$2" | tail -n 1 | sed -E 's/^[^:]+: ([0-9]+) passed, ([0-9]+) failed.*/\1 \2/'; }

BUILD_ROOT="${TABLE_BUILD_DIR:-$TABLE_ROOT/build}"

mkdir -p "$BUILD_ROOT"
# One run at a time per build folder: two runs building build/release at once break each other's objects.
# A lock is a folder naming its owner's PID (a flock()ed descriptor would be inherited by every server a
# test leaves running); a lock whose owner is gone is taken over. build/core/ has a lock of its own.
BUILD_LOCKS=()
trap 'rm -rf "${BUILD_LOCKS[@]}"' EXIT
build_lock() {
	local lock="$BUILD_ROOT/.lock-$1" owner said=""
	until mkdir "$lock" 2>/dev/null; do
		owner=$(cat "$lock/pid" 2>/dev/null || true)
		if { [ -n "$owner" ] && ! kill -0 "$owner" 2>/dev/null; } ||
			{ [ -z "$owner" ] && [ -n "$(find "$lock" -maxdepth 0 -mmin +1 2>/dev/null)" ]; }; then
			rm -rf "$lock"; continue   # its owner is gone, or died before it wrote its PID
		fi
		[ -n "$said" ] || log "another scripts/test.sh ${owner:+(PID $owner) }is using $BUILD_ROOT/$1: waiting for it (TABLE_BUILD_DIR=... or --label=... give a run a folder of its own)"
		said=1
		sleep 2
	done
	echo $$ >"$lock/pid"
	BUILD_LOCKS+=("$lock")
}
if has_layer zend-free || has_layer core || has_layer tsan || has_layer fuzz; then build_lock core; fi
build_lock "$LABEL"

# --- layer: zend-free, core, tsan, fuzz ----------------------------------------------------------------
# core/Makefile with its outputs in build/core/ rather than core/build/, so that this run and someone's
# `make -C core test` in the same tree never write the same files.
core_make() { make -C core --no-print-directory -j"$JOBS" BUILD="$BUILD_ROOT/core" "$@"; }
run_core_target() { # layer make-target summary-name
	local log="$BUILD_ROOT/$1.log" rc c
	banner "$1: make -C core $2"
	core_make "$2" 2>&1 | tee "$log"
	rc=${PIPESTATUS[0]}
	c=$(counts_from "$3" "$log")
	if [ -z "$c" ]; then
		record "$1" 0 1 0 "make -C core $2 failed before running tests; see $log"
	else
		set -- "$1" $c "$rc"
		# make can fail after the summary (it shouldn't); never let that pass silently.
		if [ "$4" -ne 0 ] && [ "$3" -eq 0 ]; then record "$1" "$2" 1 0 "make exited $4"; else RECORD_QUIET=1 record "$1" "$2" "$3"; fi
	fi
}
have_core() { [ -f core/Makefile ] && compgen -G 'core/*.c' >/dev/null; }

if has_layer zend-free; then
	if have_core; then
		banner "zend-free: make -C core check-zend-free"
		if core_make check-zend-free 2>&1 | tee "$BUILD_ROOT/zend-free.log"; [ "${PIPESTATUS[0]}" -eq 0 ]; then
			record zend-free 1 0
		else
			record zend-free 0 1
		fi
	else
		record zend-free 0 0 0 "no core/*.c yet"
	fi
fi
if has_layer core; then
	if have_core; then run_core_target core test core; else record core 0 0 0 "no core yet"; fi
fi
if has_layer redis; then
	if [ -f redis/Makefile ]; then
		banner "redis: make -C redis test"
		make -C redis --no-print-directory -j"$JOBS" BUILD="$BUILD_ROOT/redis" REDIS_SERVER="$REDIS_SERVER" REDIS_TESTS_REQUIRED="${REDIS_TESTS_REQUIRED:-0}" test \
			2>&1 | tee "$BUILD_ROOT/redis.log"
		rc=${PIPESTATUS[0]}
		c=$(counts_from redis "$BUILD_ROOT/redis.log")
		if grep -q '^redis: SKIPPED' "$BUILD_ROOT/redis.log"; then
			record redis 0 0 1 "$(sed -n 's/^redis: SKIPPED, //p' "$BUILD_ROOT/redis.log")"
		elif [ -z "$c" ]; then
			record redis 0 1 0 "make -C redis test failed before running tests; see $BUILD_ROOT/redis.log"
		else
			set -- $c
			if [ "$rc" -ne 0 ] && [ "$2" -eq 0 ]; then record redis "$1" 1 0 "make exited $rc"; else RECORD_QUIET=1 record redis "$1" "$2"; fi
		fi
	else
		record redis 0 0 0 "no redis/ yet"
	fi
fi
if has_layer tsan; then
	if have_core; then run_core_target core-tsan test-tsan core-tsan; else record core-tsan 0 0 0 "no core yet"; fi
fi

if has_layer fuzz; then
	if have_core && compgen -G 'core/fuzz/*.c' >/dev/null; then
		nfuzz=$(compgen -G 'core/fuzz/*.c' | wc -l)
		banner "fuzz: make -C core fuzz FUZZ_TIME=${FUZZ_TIME:-20}"
		if core_make fuzz FUZZ_TIME="${FUZZ_TIME:-20}" >"$BUILD_ROOT/fuzz.log" 2>&1; then
			grep -E '^(==|  CC|  LD|Done|stat::number_of_executed_units)' "$BUILD_ROOT/fuzz.log"
			record fuzz "$nfuzz" 0
		else
			tail -n 60 "$BUILD_ROOT/fuzz.log"
			record fuzz 0 1 0 "see $BUILD_ROOT/fuzz.log; crash inputs: build/core/fuzz/*-crash-*"
		fi
	else
		record fuzz 0 0 0 "no core/fuzz/*.c"
	fi
fi

# --- build the extension -------------------------------------------------------------------------------
# The layers that run table.so built here (embed-tsan builds one of its own, and arginfo runs PHP only).
needs_build() { has_layer phpt || has_layer smoke || has_layer docs || has_layer adapters || has_layer observe ||
	has_layer embed || has_layer apache || has_layer bench-threads; }
{ has_layer arginfo || has_layer embed-tsan || needs_build; } && setup_php

if has_layer arginfo; then
	if [ -f scripts/gen-arginfo.sh ] && [ -f table.stub.php ]; then
		banner "arginfo: scripts/gen-arginfo.sh in a copy, diffed with every committed *_arginfo.h"
		A="$BUILD_ROOT/arginfo"
		# Every stub and the script, in the tree's layout (the headers are made beside their stubs).
		rm -rf "$A" && mkdir -p "$A/scripts" && cp scripts/gen-arginfo.sh "$A/scripts/" &&
			tree_files . | grep -E '\.stub\.php$' | copy_into "$A"
		stale=""
		if ! PHP="$PHP_BIN" sh "$A/scripts/gen-arginfo.sh" >"$A.log" 2>&1; then
			cat "$A.log"; record arginfo 0 1 0 "gen-arginfo.sh failed"
		else
			for h in $(cd "$A" && find . -name '*_arginfo.h' | sed 's|^\./||'); do
				diff -u "$h" "$A/$h" || stale="$stale $h"
			done
			if [ -z "$stale" ]; then
				record arginfo 1 0
			else
				record arginfo 0 1 0 "stale:$stale: run scripts/gen-arginfo.sh and commit it"
			fi
		fi
	else
		record arginfo 0 0 0 "no table.stub.php or scripts/gen-arginfo.sh yet"
	fi
fi

BUILT=0
if needs_build; then
	B="$BUILD_ROOT/$LABEL"
	if [ ! -f table.c ] || [ ! -f config.m4 ]; then
		record build 0 0 0 "WARNING: no table.c yet, extension not built; phpt and smoke cannot run"
	elif banner "build ($LABEL)" && table_build "$B" "$IGBINARY" "${TABLE_CFLAGS:--O2 -g -Wall -Wextra -Werror}"; then
		BUILT=1
		record "build-$LABEL" 1 0
		# The Zend side calls one way: nothing in binding/ or serializer/ uses what table.c defines.
		if bash scripts/check-binding-layers.sh "$B" >"$B/binding-layers.log" 2>&1; then
			record binding-layers 1 0
		else
			cat "$B/binding-layers.log"
			record binding-layers 0 1
		fi
	else
		record "build-$LABEL" 0 1
	fi
fi

# --- layer: phpt ---------------------------------------------------------------------------------------
# A scan dir ($1, made anew) holding only the .ini files, of those PHP scans now, that load an extension the
# tests call (posix, pcntl, sockets) or that a test looks for (igbinary). Prints its path.
phpt_scan_dir_of_used_extensions() {
	local dir=$1 f
	rm -rf "$dir" && mkdir -p "$dir" || return 1
	for f in $("$PHP_BIN" -r 'echo php_ini_scanned_files() ?: "";' | tr -d ','); do
		case "${f##*/}" in
			*posix.ini | *pcntl.ini | *sockets.ini | *igbinary.ini) cp "$f" "$dir/" ;;
		esac
	done
	echo "$dir"
}

run_phpt() {
	local rt results="$B/phpt-results.txt" plog="$B/phpt.log" T="$B/tests" paths=() p
	rt=$(php_run_tests_script) || { record "phpt-$LABEL" 0 1 0 "run-tests.php not found for $PHP_CONFIG"; return; }
	# run-tests.php runs a failed test again when it calls sleep() or a clock function, and a pass on that
	# retry is WARNED, which counts as a failure here all the same. The retry only replaces the first
	# attempt's .diff, the one thing worth reading, so run a copy with retries off (where the script still
	# has the function edited; otherwise the script as shipped).
	if sed -E 's/^function error_may_be_retried\((.*)\): bool$/function error_may_be_retried(\1): bool { return false; }\nfunction error_may_be_retried_as_shipped(\1): bool/' \
		"$rt" >"$B/run-tests.php" && grep -q '^function error_may_be_retried_as_shipped' "$B/run-tests.php"; then
		rt="$B/run-tests.php"
	fi
	# Only what a clone would have: no .diff/.out/.php left over from someone's earlier run.
	rm -rf "$T" && mkdir -p "$T" && tree_files tests | copy_into "$B"
	if [ ${#PHPT_PATHS[@]} -gt 0 ]; then
		for p in "${PHPT_PATHS[@]}"; do
			p=${p#./}; p=${p#tests/}; p=${p#tests}
			[ -e "$T/$p" ] || { record "phpt-$LABEL" 0 1 0 "no such test path: tests/$p"; return; }
			paths+=("$T/$p")
		done
	else
		paths=("$T")
	fi
	if [ -z "$(find "${paths[@]}" -name '*.phpt' -print -quit)" ]; then
		record "phpt-$LABEL" 0 0 0 "no .phpt files yet"; return
	fi
	# Per-test time limit, a bound on a hang and nothing else: run-tests' own defaults are 60 s, and 300 s
	# under valgrind. The multi-process tests take up to 35 s on an idle 2-core machine and several times
	# that on a loaded one (300 forks and exits of a PHP cost 5 ms each idle, 40 ms under load).
	local timeout=${PHPT_TIMEOUT:-$([ "$VALGRIND" = 1 ] && echo 600 || echo 300)}
	local args=(-P -q --no-progress --no-color --set-timeout "$timeout" -W "$results"
		-d "extension=$EXT_SO" -d zend.signal_check=1 -d display_startup_errors=1)
	local jobs=${PHPT_JOBS:-$(( VALGRIND == 1 ? JOBS : 2 * JOBS ))}
	[ "$jobs" -gt 1 ] && args+=("-j$jobs")
	# PCRE's JIT code reads memory memcheck cannot follow ("conditional jump depends on uninitialised
	# value" in unnamed code): a PHP that does not turn it off under valgrind by itself, as Debian's release
	# builds do not, gets it turned off here.
	[ "$VALGRIND" = 1 ] && args+=(-m -d pcre.jit=0)
	# glibc's loader noise when table.so needs liblz4/libzstd (scripts/valgrind.supp); run-tests.php's
	# valgrind inherits the environment.
	# run-tests traces children, so the servers and tools that tests start ran under memcheck too: none of
	# them is ours, and a redis-server that slow made the tier's freshness lag (never traced here).
	# --vgdb=no: no gdbserver FIFOs in /tmp (a child that changed user could not remove root's, and said
	# so in its log, which run-tests counts as a leak).
	[ "$VALGRIND" = 1 ] && export VALGRIND_OPTS="--suppressions=$TABLE_ROOT/scripts/valgrind.supp --vgdb=no \
--trace-children-skip=*/redis-server,*/redis-cli,*/redis-sentinel,*/valkey-server,*/valkey-cli,*/valkey-sentinel,*/openssl,*/promtool${VALGRIND_OPTS:+ $VALGRIND_OPTS}"
	# Under valgrind a PHP start costs 0.6 s more with the 32 extensions of Debian 13's conf.d (ICU's data,
	# opcache, ...) than with none, and a test starts up to 20 PHPs: there, PHP reads only the extensions the
	# tests call (the rest of the scan dir is left out for the run).
	local run_env=(NO_INTERACTION=1)
	[ "$VALGRIND" = 1 ] && run_env+=("PHP_INI_SCAN_DIR=$(phpt_scan_dir_of_used_extensions "$B/conf.d-valgrind")")
	[ "$ZERO_COPY" = 1 ] && args+=(-d table.zero_copy=1)
	banner "phpt ($LABEL): run-tests.php ${args[*]} ${paths[*]#$TABLE_ROOT/}"
	rm -f "$results"
	# run-tests.php runs in a session of its own, so that whatever a test leaves running (a worker
	# orphaned when run-tests kills a timed-out test, for instance) can be found and ended afterwards.
	local sidfile="$B/phpt.sid" left
	# Each test's time goes to a JUnit file, for the list of the slowest below (the budget's first suspects).
	rm -f "$B/junit.xml"
	env "${run_env[@]}" TEST_PHP_JUNIT="$B/junit.xml" setsid --wait bash -c 'echo $$ >"$0"; exec "$@"' "$sidfile" \
		"$PHP_BIN" "$rt" "${args[@]}" "${paths[@]}" 2>&1 | sed -u "s|$B/||g" | tee "$plog"
	local rc=${PIPESTATUS[0]}
	# (Zombies are left out: they have ended, and only wait for an init that reaps late.)
	left=$(ps -o pid=,stat= -s "$(cat "$sidfile")" 2>/dev/null | awk '$2 !~ /^Z/ { print $1 }' | paste -sd, -)
	if [ -n "$left" ]; then
		echo "WARNING: processes left running by the PHPT run (ended now):"
		ps -o pid,ppid,etime,args -p "$left" 2>/dev/null | cut -c1-200 | sed 's/^/  /'
		kill -KILL ${left//,/ } 2>/dev/null
	fi
	if [ ! -s "$results" ]; then
		tail -n 40 "$plog"; record "phpt-$LABEL" 0 1 0 "run-tests.php produced no results (exit $rc); see $plog"; return
	fi
	local np nf ns
	np=$(grep -c '^PASSED' "$results")
	ns=$(grep -cE '^(SKIPPED|XFAILED)' "$results")
	nf=$(grep -cvE '^(PASSED|SKIPPED|XFAILED)' "$results")
	if [ "$nf" -gt 0 ]; then
		echo; echo "----- failing tests ($LABEL) -----"
		grep -vE '^(PASSED|SKIPPED|XFAILED)' "$results" | while IFS=$'\t' read -r res file; do
			local base=${file%.phpt}
			echo "## $res ${file#$B/}"
			for ext in diff mem; do
				[ -s "$base.$ext" ] && { echo "--- ${base#$B/}.$ext"; head -n 80 "$base.$ext"; echo; }
			done
			[ -s "$base.diff" ] || { [ -s "$base.out" ] && { echo "--- ${base#$B/}.out"; head -n 40 "$base.out"; echo; }; }
		done
		echo "(full outputs kept under ${T#$TABLE_ROOT/})"
	fi
	if [ -s "$B/junit.xml" ]; then
		echo "slowest tests ($LABEL), seconds:"
		sed -nE "s|^<testcase name='[^']*/tests/([^' ]+\.phpt) [^']*' time='([0-9.]+)'.*|\2 \1|p" "$B/junit.xml" |
			sort -rn | head -n 8 | awk '{ printf "  %7.1f  %s\n", $1, $2 }'
	fi
	local nl
	nl=$(grep -cE '^(X?LEAKED|LEAK&)' "$results")
	record "phpt-$LABEL" "$np" "$nf" "$ns" "$([ "$nl" -gt 0 ] && echo "$nl LEAKED")"
}
if has_layer phpt && [ $BUILT = 1 ]; then run_phpt; fi

# --- layer: smoke --------------------------------------------------------------------------------------
# benchmarks/smoke.sh (every case, briefly) and the runner's own checks, benchmarks/test/*_check.sh. Each
# takes PHP options as arguments, starts a redis-server on loopback if it needs one, and ends with
# `NAME: N passed, N failed`; without that line its exit status counts as one result.
run_bench_script() { # script
	local name log rc c
	name=$(basename "$1" .sh)
	log="$BUILD_ROOT/$name-$LABEL.log"
	banner "smoke: $1"
	# The scripts run `php` from PATH: make that the PHP under test (it is bin/php in a source build).
	PATH="$PHP_BIN_DIR:$PATH" bash "$1" -d apc.enable_cli=1 -d "extension=$EXT_SO" 2>&1 | tee "$log"
	rc=${PIPESTATUS[0]}
	c=$(grep -aE '^([^ ]+: )?[0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1 |
		sed -E 's/^([^ ]+: )?([0-9]+) passed, ([0-9]+) failed.*/\2 \3/')
	if [ -n "$c" ]; then
		set -- "$name" $c "$rc"
		if [ "$4" -ne 0 ] && [ "$3" -eq 0 ]; then record "$1" "$2" 1 0 "exit $4"; else RECORD_QUIET=1 record "$1" "$2" "$3"; fi
	elif [ "$rc" -eq 0 ]; then record "$name" 1 0
	else record "$name" 0 1 0 "exit $rc; see $log"
	fi
}
if has_layer smoke && [ $BUILT = 1 ]; then
	PHP_BIN_DIR=$(dirname "$PHP_BIN")
	if [ "$(basename "$PHP_BIN")" != php ]; then
		# Debian's php-config names /usr/bin/phpX.Y; give the scripts a `php` that is exactly that binary.
		PHP_BIN_DIR="$BUILD_ROOT/php-bin-$LABEL"; mkdir -p "$PHP_BIN_DIR"; ln -sf "$PHP_BIN" "$PHP_BIN_DIR/php"
	fi
	scripts=()
	[ -f benchmarks/smoke.sh ] && scripts+=(benchmarks/smoke.sh)
	for f in benchmarks/test/*_check.sh; do [ -f "$f" ] && scripts+=("$f"); done
	[ ${#scripts[@]} -gt 0 ] || record smoke 0 0 0 "no benchmarks/smoke.sh yet"
	for f in "${scripts[@]+"${scripts[@]}"}"; do run_bench_script "$f"; done
fi

# --- layers: embed, apache ------------------------------------------------------------------------------
# The threaded harnesses of a thread-safe PHP: tests/embed/run.sh (threads of one process on the embed SAPI,
# FrankenPHP's model) and tests/apache/run.sh (mod_php under Apache's event MPM). Each is run as
# `bash SCRIPT PHP_CONFIG TABLE_SO` with the given environment and ends with `SUMMARY: N passed, N failed`;
# a non-zero exit fails the layer even when that says 0 failed.
run_harness_layer() { # layer summary-name script description [VAR=value ...]
	local layer=$1 name=$2 script=$3 log rc c
	banner "$layer: $script ($4)"
	shift 4
	log="$BUILD_ROOT/$layer-$LABEL.log"
	env "$@" bash "$script" "$PHP_CONFIG" "$EXT_SO" 2>&1 | tee "$log"
	rc=${PIPESTATUS[0]}
	c=$(counts_from "$name" "$log")
	if [ -z "$c" ]; then record "$layer" 0 1 0 "$script ended without a summary (exit $rc); see $log"; return; fi
	set -- $c
	if [ "$rc" -ne 0 ] && [ "$2" -eq 0 ]; then record "$layer" "$1" 1 0 "exit $rc"; else record "$layer" "$1" "$2"; fi
}
if [ $BUILT = 1 ]; then
	has_layer embed && run_harness_layer embed embed-threads tests/embed/run.sh \
		"threads of one process running PHP requests" "EMBED_BUILD_DIR=$BUILD_ROOT/embed-$LABEL" \
		"EMBED_INI=$([ "$ZERO_COPY" = 1 ] && echo table.zero_copy=1)"
	has_layer apache && run_harness_layer apache apache-threads tests/apache/run.sh \
		"Apache's event MPM: processes of threads on one table" "NO_INSTALL=$NO_INSTALL"
	has_layer bench-threads && run_harness_layer bench-threads bench-threads benchmarks/threads/run.sh \
		"the thread benchmark against APCu, briefly: its checks, not its speed" BENCH_SECONDS=0.05 BENCH_REPEAT=1
fi
# embed-tsan: a table.so of its own, built by clang with ThreadSanitizer (which only a sanitizer runtime can
# load, so it is not loaded to check it: the harness does that), then the harness on it in both read modes.
if has_layer embed-tsan; then
	banner "embed-tsan: table.so built with -fsanitize=thread (clang), for the embed harness under ThreadSanitizer"
	built_so=${EXT_SO:-}
	if CC=clang TABLE_LOAD_CHECK=0 table_build "$BUILD_ROOT/$LABEL-tsan" 0 "-O1 -g -fsanitize=thread -fno-omit-frame-pointer -Wall -Wextra -Werror"; then
		for zc in 0 1; do
			run_harness_layer "embed-tsan$([ $zc = 1 ] && echo -zero-copy)" embed-tsan tests/embed/run.sh \
				"threads of one process under ThreadSanitizer, table.zero_copy=$zc" EMBED_TSAN=1 \
				"EMBED_BUILD_DIR=$BUILD_ROOT/embed-tsan-$LABEL-$zc" "EMBED_INI=table.zero_copy=$zc"
		done
	else
		record embed-tsan 0 1 0 "table.so did not build with -fsanitize=thread; see $BUILD_ROOT/$LABEL-tsan.build.log"
	fi
	EXT_SO=$built_so
fi

# --- layers: adapters, observe ---------------------------------------------------------------------------
# A script of another part of the tree, run on the table.so just built; it ends with its own
# `NAME: N passed, N failed[, N skipped]`, and a non-zero exit fails the layer even when that says 0 failed.
run_script_layer() { # layer script description
	local log="$BUILD_ROOT/$1-$LABEL.log" rc c skipped
	banner "$1: $2 ($3)"
	NO_INSTALL=$NO_INSTALL bash "$2" "$EXT_SO" --php "$PHP_BIN" 2>&1 | tee "$log"
	rc=${PIPESTATUS[0]}
	c=$(counts_from "$1" "$log")
	if [ -z "$c" ]; then record "$1" 0 1 0 "$2 ended without a summary (exit $rc); see $log"; return; fi
	set -- "$1" $c
	skipped=$(grep -aE "^$1: [0-9]+ passed" "$log" | tail -n 1 | sed -nE 's/.*, ([0-9]+) skipped$/\1/p')
	if [ "$rc" -ne 0 ] && [ "$3" -eq 0 ]; then record "$1" "$2" 1 "${skipped:-0}" "exit $rc"
	else RECORD_QUIET=1 record "$1" "$2" "$3" "${skipped:-0}"; fi
}
if [ $BUILT = 1 ]; then
	has_layer docs && run_script_layer docs scripts/doc-test.sh "links, anchors and runnable examples of the docs"
	has_layer adapters && run_script_layer adapters php/tests/run.sh "PHPUnit: PSR-16, PSR-6, Symfony, Laravel"
	has_layer observe && run_script_layer observe status/test/run.sh "the status page in headless Chromium"
fi

# --- summary -------------------------------------------------------------------------------------------
banner "summary${LABEL:+ ($LABEL)}"
printf '%s\n' "${SUMMARY[@]}"
final="$TOTAL_P passed, $TOTAL_F failed"
[ "$TOTAL_S" -gt 0 ] && final="$final, $TOTAL_S skipped"
echo "$final"
[ "$TOTAL_F" -eq 0 ]
exit
}
