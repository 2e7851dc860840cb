#!/usr/bin/env bash
# scripts/apcu-suite.sh - APCu's own PHPT suite against table.apcu_compat=1, with APCu not loaded (issue #34).
#
#   bash scripts/apcu-suite.sh build/release/modules/table.so [--php PHP] [--no-install]
#   (--php: the PHP to run, default `php`; PHP_CONFIG names its php-config when it is not the one on PATH)
#   bash scripts/debian-tree.sh run bash scripts/apcu-suite.sh /table/build/debian13/release/modules/table.so
#
# The tests are APCu's, at the version this Debian release ships: `apt-get source php-apcu` (Debian's
# source package carries APCu's tests/) into $TABLE_CACHE/apcu-src (default /var/cache/table-ci; build/
# when that cannot be written), once per version; a deb-src entry is added in a file of its own
# (/etc/apt/sources.list.d/table-deb-src.*, as scripts/build-debug-php.sh does) when apt has none. Nothing
# of them enters the repository. Each run copies them to build/apcu-suite/<PHP version>/tests, leaves out
# the tests scripts/apcu-suite.exclude lists (one line each: the test's file name, then why), and runs the
# rest with PHP's run-tests.php:
#   php -n run-tests.php -n -d extension=TABLE_SO -d table.apcu_compat=1 -d apc.enable_cli=1
# `-n` for run-tests and for every PHP it starts: no php.ini and no conf.d, so Debian's php-apcu (if
# installed) is not loaded and the apcu_* functions are the table's. What the tests need besides
# (pcntl, pcre, json, session) is built into Debian's PHP binary.
#
# Output: the failing tests' diffs, the excluded tests with their reasons, then as the last line
# `apcu-suite: N passed, N failed, N skipped` (skipped: the tests' own SKIPIFs plus the exclusions).
# Exit status 1 when a test failed, or nothing ran.
set -uo pipefail
# The body is one compound command, read whole before it runs: editing this file mid-run is safe.
{
. "$(dirname "$0")/lib.sh"
cd "$TABLE_ROOT"

SO="" PHP=${PHP:-php} NO_INSTALL=${NO_INSTALL:-0}
EXCLUDE="$TABLE_ROOT/scripts/apcu-suite.exclude"
while [ $# -gt 0 ]; do
	case "$1" in
		--php) PHP=$2; shift ;;
		--php=*) PHP=${1#*=} ;;
		--no-install) NO_INSTALL=1 ;;
		-h|--help) sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
		*) SO=$1 ;;
	esac
	shift
done
fail() { echo "apcu-suite: $*"; echo "apcu-suite: 0 passed, 1 failed, 0 skipped"; exit 1; }
[ -n "$SO" ] && [ -f "$SO" ] || fail "usage: bash scripts/apcu-suite.sh TABLE_SO (no such file: '$SO')"
SO=$(cd "$(dirname "$SO")" && pwd)/$(basename "$SO")
command -v "$PHP" >/dev/null 2>&1 || fail "no PHP: $PHP"
PHP=$(command -v "$PHP")

# --- APCu's tests, from Debian's source package -------------------------------------------------------
SRC="${TABLE_CACHE:-/var/cache/table-ci}/apcu-src"
if ! mkdir -p "$SRC" 2>/dev/null || [ ! -w "$SRC" ]; then
	SRC="$TABLE_ROOT/build/apcu-src"
	mkdir -p "$SRC" || fail "cannot create $SRC"
fi

# The newest APCu 5 source tree already unpacked in the cache whose version apt would give now.
apcu_tests_dir() {
	local d
	for d in $(find "$SRC" -mindepth 3 -maxdepth 4 -path '*/tests/iterator_001.phpt' 2>/dev/null | sort -V -r); do
		d=$(dirname "$d")
		[ -f "$d/../apc_iterator.c" ] && grep -qs "PHP_APCU_VERSION \"5\." "$d/../php_apc.h" && { echo "$d"; return 0; }
	done
	return 1
}
if [ "$NO_INSTALL" = 1 ]; then
	[ -n "$(apcu_tests_dir)" ] || fail "no APCu sources in $SRC and --no-install"
else
	apcu_deb_source "$SRC" || fail "no php-apcu source package (see above)"
fi
TESTS_SRC=$(apcu_tests_dir) || fail "no APCu 5 tests/ found under $SRC"
APCU_VERSION=$(sed -n 's/^#define PHP_APCU_VERSION "\(.*\)"/\1/p' "$TESTS_SRC/../php_apc.h")

# --- run them ----------------------------------------------------------------------------------------
PHP_VERSION=$("$PHP" -n -r 'echo PHP_VERSION;')
php_tools   # run-tests.php comes with PHP's build files (PHP_CONFIG, default the php-config on PATH)
RT=$(php_run_tests_script) || fail "run-tests.php not found (install $(php_deb_pkgs dev))"
B="$TABLE_ROOT/build/apcu-suite/$PHP_VERSION"
rm -rf "$B" && mkdir -p "$B" && cp -a "$TESTS_SRC" "$B/tests" || fail "cannot copy the tests into $B"
"$PHP" -n -d "extension=$SO" -r 'exit(extension_loaded("table") ? 0 : 1);' 2>/dev/null \
	|| fail "$SO does not load in $PHP -n"

excluded=0 ex_lines=()
while IFS= read -r line; do
	case "$line" in ''|'#'*) continue ;; esac
	t=${line%%[[:space:]]*}
	reason=$(echo "${line#"$t"}" | sed 's/^[[:space:]]*//')
	[ -n "$reason" ] || fail "scripts/apcu-suite.exclude: $t has no reason"
	if [ -f "$B/tests/$t" ]; then
		rm -f "$B/tests/$t"
		excluded=$((excluded + 1))
		ex_lines+=("  $t: $reason")
	fi
done <"$EXCLUDE"

log "APCu $APCU_VERSION's tests ($TESTS_SRC) on PHP $PHP_VERSION with $SO; $excluded excluded"
results="$B/results.txt"
args=(-n -P -q --no-progress --no-color --set-timeout 120 -W "$results" -j"$(nproc 2>/dev/null || echo 2)"
	-d "extension=$SO" -d table.apcu_compat=1 -d apc.enable_cli=1)
env NO_INTERACTION=1 PHP_INI_SCAN_DIR=/nonexistent TEST_PHP_EXECUTABLE="$PHP" \
	"$PHP" -n "$RT" "${args[@]}" "$B/tests" >"$B/run-tests.log" 2>&1
[ -s "$results" ] || { tail -n 30 "$B/run-tests.log"; fail "run-tests.php produced no results (log: $B/run-tests.log)"; }

np=$(grep -c '^PASSED' "$results")
ns=$(grep -cE '^(SKIPPED|XFAILED)' "$results")
nf=$(grep -cvE '^(PASSED|SKIPPED|XFAILED)' "$results")
if [ "$nf" -gt 0 ]; then
	echo "----- failing APCu tests -----"
	grep -vE '^(PASSED|SKIPPED|XFAILED)' "$results" | while IFS=$'\t' read -r res file; do
		echo "## $res ${file#"$B"/}"
		[ -s "${file%.phpt}.diff" ] && head -n 60 "${file%.phpt}.diff" && echo
	done
fi
if [ "$ns" -gt 0 ]; then
	echo "skipped by the tests themselves:"
	grep -E '^(SKIPPED|XFAILED)' "$results" | while IFS=$'\t' read -r res file; do
		echo "  $(basename "$file"): $(grep -F "$(basename "$file")" "$B/run-tests.log" | sed -n 's/.*reason: //p' | head -n 1)"
	done
fi
echo "excluded (scripts/apcu-suite.exclude):"
printf '%s\n' "${ex_lines[@]}"
echo "APCu $APCU_VERSION tests on PHP $PHP_VERSION: $np passed, $nf failed, $ns skipped by SKIPIF, $excluded excluded"
echo "apcu-suite: $np passed, $nf failed, $((ns + excluded)) skipped"
[ "$nf" -eq 0 ] && [ "$np" -gt 0 ]
}
