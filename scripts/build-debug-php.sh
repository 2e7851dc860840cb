#!/usr/bin/env bash
# scripts/build-debug-php.sh - build a debug PHP (--enable-debug: leak reports, assertions,
# zend.signal_check) from Debian's own source package of the release PHP (php-config on PATH: phpX.Y), for
# the PHPT suite to run on. On Debian 12 that is PHP 8.2's source package, in the Debian 13 tree PHP 8.4's.
#
#   bash scripts/build-debug-php.sh            build (or reuse) and print the php-config path on stdout
#   PHP_DEBUG_PREFIX=DIR   install prefix      (default $TABLE_CACHE/php-debug)
#   TABLE_CACHE=DIR        download/build area (default /var/cache/table-ci, outside the clone, so a
#                          fresh clone in CI reuses the build of an earlier run on the same machine)
#   PHP_DEBUG_CONFIGURE_EXTRA="--enable-opcache ..."   extra configure flags
#   PHP_DEBUG_VERSION=8.4  the source package phpX.Y to build (default: the release PHP's X.Y)
#
# Exit status 3 when the archive lists the source package but does not serve its files (seen for Debian
# 13's php8.4: its .dsc and tarballs answer 404): there is nothing to build, which is not a failure of ours.
#
# Idempotent: when $prefix/bin/php exists, is a debug build and was configured with the same flags, it
# does nothing but print the path. Then use it with:
#   bash scripts/test.sh --php "$(bash scripts/build-debug-php.sh)"
#
# The build is minimal (--disable-all) plus what the PHPT suite and run-tests.php need: pcntl and posix
# for the multi-process tests, tokenizer and ctype for test helpers. JSON, SPL, random, standard and
# Reflection are always built (8.2 and later). Progress goes to stderr; the full build log to $cache/php-debug.log.
set -euo pipefail
# The body is one compound command, read whole before it runs: editing this file mid-run is safe.
{
. "$(dirname "$0")/lib.sh"

CACHE=${TABLE_CACHE:-/var/cache/table-ci}
PREFIX=${PHP_DEBUG_PREFIX:-$CACHE/php-debug}
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}
CONFIGURE_FLAGS=(
	--prefix="$PREFIX"
	--enable-debug
	--disable-all
	--disable-cgi
	--disable-phpdbg
	--without-pear
	--enable-cli
	--enable-pcntl
	--enable-posix
	--enable-tokenizer
	--enable-ctype
	--with-config-file-path="$PREFIX/etc"
	--with-config-file-scan-dir="$PREFIX/etc/conf.d"
)
# shellcheck disable=SC2206  # word splitting of the extra flags is intended
[ -n "${PHP_DEBUG_CONFIGURE_EXTRA:-}" ] && CONFIGURE_FLAGS+=(${PHP_DEBUG_CONFIGURE_EXTRA})
STAMP="$PREFIX/.table-configure-flags"
VERSION=${PHP_DEBUG_VERSION:-$(php_minor php-config)}
if [ -z "$VERSION" ]; then
	apt_ensure php-dev
	VERSION=$(php_minor php-config)
fi
[[ "$VERSION" =~ ^[0-9]+\.[0-9]+$ ]] || die "cannot tell which PHP to build (php-config --version: '$VERSION')"

if [ -x "$PREFIX/bin/php" ] && [ -f "$STAMP" ] && [ "$(cat "$STAMP")" = "${CONFIGURE_FLAGS[*]}" ] \
	&& [[ "$("$PREFIX/bin/php" -v 2>/dev/null)" == *DEBUG* ]] \
	&& [ "$(php_minor "$PREFIX/bin/php-config")" = "$VERSION" ]; then
	log "debug PHP already built: $("$PREFIX/bin/php" -v | head -n 1)"
	apt_ensure libtool pkg-config
	php_link_aclocal "$PREFIX"
	echo "$PREFIX/bin/php-config"
	exit 0
fi

# build-essential brings gcc, make and dpkg-dev (dpkg-source unpacks and patches the source package).
apt_ensure build-essential dpkg-dev autoconf automake libtool bison re2c pkg-config file

rc=0
srcdir=$(php_deb_source "$VERSION" "$CACHE") || rc=$?
[ $rc = 3 ] && { log "no debug PHP $VERSION here"; exit 3; }
[ $rc = 0 ] || exit $rc
log "building $(basename "$srcdir") into $PREFIX (-j$JOBS, log: $CACHE/php-debug.log)"

cd "$srcdir"
buildlog="$CACHE/php-debug.log"
: >"$buildlog"
run() { "$@" >>"$buildlog" 2>&1 || { tail -n 40 "$buildlog" >&2; die "failed: $* (see $buildlog)"; }; }
[ -f Makefile ] && run make distclean
# Debian's patches touch configure.ac and build/*.m4, so regenerate configure.
run ./buildconf --force
run ./configure "${CONFIGURE_FLAGS[@]}"
run make -j"$JOBS"
rm -rf "$PREFIX"
run make install
mkdir -p "$PREFIX/etc/conf.d"
php_link_aclocal "$PREFIX"
printf '%s' "${CONFIGURE_FLAGS[*]}" >"$STAMP"

[[ "$("$PREFIX/bin/php" -v)" == *DEBUG* ]] || die "$PREFIX/bin/php is not a debug build"
log "built: $("$PREFIX/bin/php" -v | head -n 1)"
echo "$PREFIX/bin/php-config"
exit
}
