#!/usr/bin/env bash
# scripts/build-zts-apcu.sh - build APCu for a thread-safe PHP (scripts/build-zts-php.sh) from Debian's own
# php-apcu source package, so that the thread benchmark (benchmarks/threads/) compares Shm\Table with the
# APCu a Debian host would run, on the same ZTS PHP, in the same process.
#
#   bash scripts/build-zts-apcu.sh PHP_CONFIG    build (or reuse) and print the path of apcu.so on stdout
#   TABLE_CACHE=DIR   download/build area (default /var/cache/table-ci, outside the clone)
#
# The source is the APCu 5 tree of `apt-get source php-apcu` in $TABLE_CACHE/apcu-src, where
# scripts/apcu-suite.sh keeps it for APCu's tests (fetched by lib.sh's apcu_deb_source when it is not there yet).
# It is built with that PHP's phpize and php-config in a copy of its own, $TABLE_CACHE/apcu-zts/<php
# prefix's name>/apcu-<version>/, and the module stays there (modules/apcu.so). Idempotent: when that
# module exists and was built for the same php-config and APCu version, it only prints the path.
set -euo pipefail
# The body is one compound command, read whole before it runs: editing this file mid-run is safe.
{
. "$(dirname "$0")/lib.sh"

PHP_CONFIG=${1:?usage: build-zts-apcu.sh PHP_CONFIG}
[[ "$PHP_CONFIG" == /* ]] || PHP_CONFIG="$PWD/$PHP_CONFIG"
[ -x "$PHP_CONFIG" ] || die "no php-config: $PHP_CONFIG"
PREFIX=$("$PHP_CONFIG" --prefix)
CACHE=${TABLE_CACHE:-/var/cache/table-ci}
SRC="$CACHE/apcu-src"

# The newest APCu 5 source tree unpacked under $SRC (Debian's php-apcu carries APCu 5 and apcu_bc 4).
apcu_dir() {
	local h
	for h in $(find "$SRC" -mindepth 3 -maxdepth 3 -name php_apc.h 2>/dev/null | sort -V -r); do
		grep -qs 'PHP_APCU_VERSION "5\.' "$h" && [ -f "$(dirname "$h")/config.m4" ] && { dirname "$h"; return 0; }
	done
	return 1
}
if ! apcu_dir >/dev/null; then
	apcu_deb_source "$SRC" || die "no php-apcu source package (see above)"
fi
src=$(apcu_dir) || die "no APCu 5 source under $SRC"
version=$(sed -n 's/^#define PHP_APCU_VERSION "\(.*\)"/\1/p' "$src/php_apc.h")
work="$CACHE/apcu-zts/$(basename "$PREFIX")/apcu-$version"
so="$work/modules/apcu.so"
stamp="$work/.table-built-for"
want="$PHP_CONFIG $("$PHP_CONFIG" --version) $version"
if [ -f "$so" ] && [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
	log "APCu $version already built for $PREFIX"
	echo "$so"
	exit 0
fi

apt_ensure build-essential autoconf automake libtool rsync
mkdir -p "$work"
rsync -a --delete "$src/" "$work/"
buildlog="$work/build.log"
log "building APCu $version for $("$PHP_CONFIG" --version) ($PREFIX) in $work (log: $buildlog)"
: >"$buildlog"
run() { "$@" >>"$buildlog" 2>&1 || { tail -n 40 "$buildlog" >&2; die "failed: $* (see $buildlog)"; }; }
cd "$work"
run "$(dirname "$PHP_CONFIG")/phpize"
run ./configure --with-php-config="$PHP_CONFIG" --enable-apcu
run make -j"${JOBS:-$(nproc 2>/dev/null || echo 2)}"
[ -f "$so" ] || die "no $so after make"
"$PREFIX/bin/php" -n -d "extension=$so" -d apc.enable_cli=1 -r 'exit(apcu_enabled() ? 0 : 1);' \
	|| die "$so does not load in $PREFIX/bin/php"
printf '%s' "$want" >"$stamp"
echo "$so"
exit
}
