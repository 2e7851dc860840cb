#!/usr/bin/env bash
# scripts/apcu-apps.sh - real APCu applications, unchanged, from Debian's packages, on table.apcu_compat=1
# with APCu not loaded, across processes (issue #34).
#
#   bash scripts/apcu-apps.sh [TABLE_SO] [--php PHP] [--no-install]
#   (no TABLE_SO: table.so is built into build/apcu-apps; --php: the PHP to run, default the one
#   php-config names)
#   bash scripts/debian-tree.sh run bash scripts/apcu-apps.sh /table/build/debian13/release/modules/table.so
#
# The applications, from the Debian release's own packages (apt_ensure installs the missing ones):
#   composer    Composer's Composer\Autoload\ClassLoader (package composer) with setApcuPrefix(): a class
#               one process finds through its PSR-4 map is loaded by the next from apcu_fetch() alone
#   symfony     Symfony's ApcuAdapter (php-symfony-cache): isSupported(), pools written by one process and
#               read by another, clear() of one namespace only, a version change
#   laravel     Laravel's `apc` store, Illuminate\Cache\Repository over ApcStore over ApcWrapper
#               (php-illuminate-cache): put/get across processes, add, add raced by forked processes,
#               increment by 4 forked processes × 2,000 exact, flush. ApcStore has no add() (8.x, 10.x):
#               Repository::add() is get() then put(), so a race can have several winners with APCu too;
#               the race checks what that promises (a winner, whose value is kept) and prints how many won
#   mediawiki   MediaWiki's APCUBagOStuff (mediawiki; the class is in mediawiki-classes, what it uses of
#               vendor/ in mediawiki), loaded standalone through MediaWiki's class map: set/get/add across
#               processes, add raced, incrWithInit (its apcu_cas loop, and apcu_inc) by forked processes
# The checks are php/apcu-apps/APP.php, one process per step, each step's PHP started afresh:
#   php -n -d extension=TABLE_SO -d table.apcu_compat=1 -d apc.enable_cli=1
#       -d table.segment=APP -d table.segment_dir=TMP -d table.memory=16M [-d extension=X ...] APP.php STEP
# `-n`: no php.ini and no conf.d, so Debian's php-apcu (if installed) is not loaded and the apcu_* functions
# are the table's; the extensions an application needs beyond those built into Debian's PHP binary are
# added by name, each checked to be installed in PHP's scan dir (APP_EXTS below). Separate CLI processes
# share one table only through a named segment: each application gets its own (php-table.APP) in a
# temporary directory that is removed at the end; races run in children forked by one step (pcntl_fork).
#
# Output: `ok - ...` / `not ok - ...` lines (a step's stray output, a PHP warning or a non-zero exit is a
# `not ok` of its own, with that output), then `apcu-apps: N passed, N failed`. Exit status 1 on a failure.
set -uo pipefail
# The body is one compound command, read whole before it runs: editing this file mid-run is safe.
{
. "$(dirname "$0")/lib.sh"
cd "$TABLE_ROOT" || exit 1

SO="" PHP_ARG="" NO_INSTALL=${NO_INSTALL:-0}
while [ $# -gt 0 ]; do
	case "$1" in
		--php) PHP_ARG=$2; shift ;;
		--php=*) PHP_ARG=${1#*=} ;;
		--no-install) NO_INSTALL=1 ;;
		-h|--help) sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
		*) SO=$1 ;;
	esac
	shift
done

PASS=0 FAIL=0
finish() { echo "apcu-apps: $PASS passed, $FAIL failed"; [ "$FAIL" -eq 0 ] && [ "$PASS" -gt 0 ]; exit; }
notok() { FAIL=$((FAIL + 1)); echo "not ok - $*"; }

if [ "$NO_INSTALL" != 1 ]; then
	# shellcheck disable=SC2046 # one package name a word
	apt_ensure composer php-symfony-cache php-illuminate-cache $(php_deb_pkgs cli)
	# mediawiki depends on "apache2 | httpd" and on the PHP metapackage: with nginx and php-fpm there (as
	# the wordpress step has them), apt takes those and installs no Apache.
	# shellcheck disable=SC2046
	apt_ensure nginx $(php_deb_pkgs fpm)
	apt_ensure "php$(php_minor php-config)"
	apt_ensure mediawiki
fi
php_tools
if [ -z "$SO" ]; then
	table_build "$TABLE_ROOT/build/apcu-apps" 0 "-O2 -g" || { notok "build table.so"; finish; }
	SO=$EXT_SO
fi
{ [ -n "$SO" ] && [ -f "$SO" ]; } || { notok "table.so at '$SO'"; finish; }
SO=$(cd "$(dirname "$SO")" && pwd)/$(basename "$SO")
PHP=${PHP_ARG:-$PHP_BIN}
command -v "$PHP" >/dev/null 2>&1 || { notok "no PHP: $PHP"; finish; }

# Composer's ClassLoader, where Debian's composer package put it.
CLASSLOADER=$(dpkg -L composer 2>/dev/null | grep -m1 '/Composer/Autoload/ClassLoader\.php$')
MEDIAWIKI_DIR=/usr/share/mediawiki

# The extensions each application needs that `php -n` lacks (Debian builds some into the binary, ships
# others as modules enabled in the scan dir): none today beyond the built-in pcntl, pcre, json, spl.
declare -A APP_EXTS=([composer]="" [symfony]="" [laravel]="" [mediawiki]="")
SCAN_DIR=$("$PHP" --ini 2>/dev/null | sed -n 's/^Scan for additional \.ini files in:[[:space:]]*//p')
BUILTIN=$("$PHP" -n -m 2>/dev/null | tr '[:upper:]' '[:lower:]')
# -d extension=NAME for each of the given extensions that is not built in; fails when one is not installed.
ext_args() {
	local e
	for e in "$@"; do
		grep -qx "$e" <<<"$BUILTIN" && continue
		if ! ls "${SCAN_DIR:-/nonexistent}"/*-"$e".ini >/dev/null 2>&1 && [ ! -f "$PHP_EXTDIR/$e.so" ]; then
			log "extension $e is not installed (apt-get install $(php_deb_pkgs "$e"))"; return 1
		fi
		printf '%s\n' -d "extension=$e"
	done
}

TMP=$(mktemp -d "${TMPDIR:-/tmp}/apcu-apps.XXXXXX") || { notok "mktemp"; finish; }
trap 'rm -rf "$TMP"' EXIT

PHP_VERSION=$("$PHP" -n -r 'echo PHP_VERSION;')
"$PHP" -n -d "extension=$SO" -r 'exit(extension_loaded("table") ? 0 : 1);' 2>/dev/null \
	|| { notok "$SO does not load in $PHP -n"; finish; }
log "PHP $PHP_VERSION, $SO; composer $(dpkg-query -W -f='${Version}' composer 2>/dev/null)," \
	"php-symfony-cache $(dpkg-query -W -f='${Version}' php-symfony-cache 2>/dev/null)," \
	"php-illuminate-cache $(dpkg-query -W -f='${Version}' php-illuminate-cache 2>/dev/null)," \
	"mediawiki $(dpkg-query -W -f='${Version}' mediawiki 2>/dev/null)"

# run APP STEP: one process of APP's check script, on APP's named segment. Counts its ok / not ok lines;
# anything else it prints, or a non-zero exit, is one more failure.
run() {
	local app=$1 step=$2 out rc line stray=() exts
	# shellcheck disable=SC2086 # a list of names
	exts=$(ext_args ${APP_EXTS[$app]}) || { notok "$app $step: a needed PHP extension is missing"; return; }
	# shellcheck disable=SC2046 # one argument per line
	out=$(cd "$TMP" && env APPS_TMP="$TMP" COMPOSER_CLASSLOADER="$CLASSLOADER" MEDIAWIKI_DIR="$MEDIAWIKI_DIR" \
		"$PHP" -n -d "extension=$SO" -d table.apcu_compat=1 -d apc.enable_cli=1 \
		-d "table.segment=$app" -d "table.segment_dir=$TMP" -d table.memory=16M \
		-d display_errors=stderr -d log_errors=0 -d memory_limit=256M \
		$(printf '%s' "$exts" | tr '\n' ' ') \
		"$TABLE_ROOT/php/apcu-apps/$app.php" "$step" 2>&1)
	rc=$?
	while IFS= read -r line; do
		case "$line" in
			'ok - '*) PASS=$((PASS + 1)); echo "$line" ;;
			'not ok - '*) FAIL=$((FAIL + 1)); echo "$line" ;;
			'') ;;
			*) stray+=("$line") ;;
		esac
	done <<<"$out"
	if [ "$rc" -ne 0 ] || [ ${#stray[@]} -gt 0 ]; then
		notok "$app $step: exit $rc$([ ${#stray[@]} -gt 0 ] && echo ", and this output:")"
		printf '    %s\n' "${stray[@]:0:40}"
	fi
}

if [ -z "$CLASSLOADER" ]; then
	notok "composer: Debian's composer package has no Composer/Autoload/ClassLoader.php"
else
	run composer find
	run composer serve
fi
run symfony write
run symfony read
run symfony after
run laravel write
run laravel read
run laravel flush
run laravel after
if [ ! -f "$MEDIAWIKI_DIR/vendor/autoload.php" ] || [ ! -f "$MEDIAWIKI_DIR/autoload.php" ]; then
	notok "mediawiki: no $MEDIAWIKI_DIR/vendor/autoload.php or autoload.php (package mediawiki)"
else
	run mediawiki write
	run mediawiki read
	run mediawiki after
fi
leftover=$(find "$TMP" -maxdepth 1 -name 'php-table.*' | wc -l)
log "$leftover named segment(s) in $TMP, removed with it"
finish
}
