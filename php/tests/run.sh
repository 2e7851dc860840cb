#!/usr/bin/env bash
# php/tests/run.sh - run table/cache's PHPUnit suite (php/tests/) against a table.so.
#
#   bash php/tests/run.sh [TABLE_SO] [--php PHP_BINARY] [--zero-copy] [-- PHPUNIT_ARGS...]
#
# Without TABLE_SO it builds one from a fresh copy of the sources in build/adapters/ (scripts/lib.sh's
# table_build). As root it installs what it needs from Debian's archive (NO_INSTALL=1: don't): PHPUnit,
# the php-cache/integration-tests conformance suite, Symfony Cache and FrameworkBundle, Laravel's cache,
# container and config, APCu (the apc driver and ApcuAdapter to compare with), the PSR interfaces and
# php-fpm.
# The suites:
#   psr16    the conformance suite's SimpleCacheTest on Shm\Cache\SimpleCache, plus tests of its own
#   psr6     the conformance suite's CachePoolTest on Shm\Cache\CacheItemPool, plus tests of its own
#   symfony  CachePoolTest on Shm\Cache\Symfony\TableAdapter, get() stampede protection across forked
#            workers, namespaces, version, prune; keys as ApcuAdapter treats them (assertions off and
#            on); a FrameworkBundle kernel with cache.adapter.table pools (TableBundle)
#   laravel  Shm\Cache\Laravel\TableStore through Illuminate\Cache\Repository, locks across forked
#            workers, a lock's TTL running out at each moment of its release(), the service provider
#            through CacheManager; prefix and tags run against both the table and the apc driver; two
#            applications with different prefixes in one pool of a real php-fpm of this PHP (FpmPrefixTest,
#            skipped only when there is no such php-fpm), which loads TABLE_SO and nothing from the scan dir
#   signatures  the PSR classes load against psr/cache and psr/simple-cache 2 and 3 (Debian has 1)
#   readme   the snippets of php/README.md's "Usage and configuration" section
# --zero-copy runs PHP with -d table.zero_copy=1 (arrays read straight from shared memory).
# PHP runs with zend.assertions=-1 (production), as the PSR classes' key validation must not rely on
# assert(), and apc.enable_cli=1 (without APCu the comparisons with it are skipped).
# The TTL tests sleep (the table's clock cannot be mocked): about 30 s in all.
# Output: PHPUnit's, a line per suite, and last `adapters: N passed, N failed[, N skipped]`.
set -uo pipefail
{
. "$(dirname "$0")/../../scripts/lib.sh"
cd "$TABLE_ROOT"
SO="" PHP_ARG="" EXTRA=() PHP_OPTS=()
while [ $# -gt 0 ]; do
	case "$1" in
		--php) PHP_ARG=$2; shift ;;
		--php=*) PHP_ARG=${1#*=} ;;
		--zero-copy) PHP_OPTS+=(-d table.zero_copy=1) ;;
		--) shift; EXTRA=("$@"); break ;;
		-h|--help) sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
		*) SO=$1 ;;
	esac
	shift
done
finish() { echo "adapters: $1 passed, $2 failed${3:+, $3 skipped}"; [ "$2" -eq 0 ]; exit; }

if [ "${NO_INSTALL:-0}" != 1 ]; then
	pkgs=(phpunit php-cache-integration-tests php-symfony-cache php-symfony-framework-bundle php-illuminate-cache
		php-illuminate-container php-illuminate-config php-psr-cache php-psr-simple-cache php-apcu composer
		$(php_deb_pkgs fpm))
	[ -z "$PHP_ARG" ] && pkgs+=($(php_deb_pkgs cli))
	[ -z "$SO" ] && pkgs+=($(php_deb_pkgs dev) build-essential autoconf automake libtool)
	apt_ensure "${pkgs[@]}"
fi
PHPUNIT=$(command -v phpunit) || { log "phpunit not found (apt-get install phpunit)"; finish 0 1; }

if [ -z "$SO" ]; then
	php_tools
	table_build "$TABLE_ROOT/build/adapters" 0 "-O2 -g -Wall -Wextra -Werror" || finish 0 1
	SO=$EXT_SO
fi
[ -f "$SO" ] || { log "no table.so at $SO"; finish 0 1; }
SO=$(cd "$(dirname "$SO")" && pwd)/$(basename "$SO")
PHP=${PHP_ARG:-${PHP_BIN:-php}}
php_without_installed_table "$PHP"

OUT="$TABLE_ROOT/build/adapters-phpunit"
mkdir -p "$OUT"
JUNIT="$OUT/junit.xml"
rm -f "$JUNIT"
# FpmPrefixTest's php-fpm works in here. It stops its php-fpm itself; should PHPUnit die first, this does.
export TABLE_FPM_DIR="$OUT/fpm"
rm -rf "$TABLE_FPM_DIR"
stop_left_fpm() {
	local pid
	pid=$(cat "$TABLE_FPM_DIR/fpm.pid" 2>/dev/null) || return 0
	[[ "$(readlink "/proc/$pid/exe" 2>/dev/null)" == */php-fpm* ]] || return 0
	log "stopping the php-fpm FpmPrefixTest left running (pid $pid)"
	kill -QUIT "$pid" 2>/dev/null
	for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.1; done
	kill -KILL "$pid" 2>/dev/null
}
trap stop_left_fpm EXIT
log "PHPUnit on $($PHP -r 'echo PHP_VERSION;') with $SO"
TABLE_SO="$SO" "$PHP" -d "extension=$SO" "${PHP_OPTS[@]+"${PHP_OPTS[@]}"}" -d zend.assertions=-1 -d zend.signal_check=1 -d display_errors=1 -d apc.enable_cli=1 \
	"$PHPUNIT" -c php/tests/phpunit.xml --log-junit "$JUNIT" "${EXTRA[@]+"${EXTRA[@]}"}"
rc=$?
[ -s "$JUNIT" ] || { log "PHPUnit wrote no results (exit $rc)"; finish 0 1; }

# Per suite and in total, from the JUnit log: failed = failures + errors; skipped includes incomplete.
counts=$("$PHP" -r '
	$x = simplexml_load_file($argv[1]);
	$t = [0, 0, 0];
	foreach ($x->testsuite->testsuite as $s) {
		$n = (int) $s["tests"]; $f = (int) $s["failures"] + (int) $s["errors"]; $k = (int) $s["skipped"];
		printf("  %-8s %d passed, %d failed, %d skipped\n", $s["name"], $n - $f - $k, $f, $k);
		$t[0] += $n - $f - $k; $t[1] += $f; $t[2] += $k;
	}
	echo implode(" ", $t), "\n";
' "$JUNIT") || finish 0 1
sed '$d' <<<"$counts"
read -r p f s <<<"$(tail -n 1 <<<"$counts")"
# PHPUnit failing for a reason the log does not count (a warning, a risky test) still fails the run.
[ "$rc" -ne 0 ] && [ "$f" -eq 0 ] && f=1
[ "$s" -gt 0 ] && finish "$p" "$f" "$s"
finish "$p" "$f"
}
