#!/usr/bin/env bash
# scripts/build-zts-php.sh - build a thread-safe PHP (--enable-zts) from Debian's own source package of the
# release PHP (php-config on PATH: phpX.Y), for the extension to be built and tested on threaded PHP: the
# CLI for the PHPT suite, and the embed SAPI (libphp.so, --enable-embed) for the threaded C harness that
# stands in for FrankenPHP (one process, many threads, each running PHP requests).
#
#   bash scripts/build-zts-php.sh             build (or reuse) and print the php-config path on stdout
#   PHP_ZTS_PREFIX=DIR     install prefix      (default $TABLE_CACHE/php-zts)
#   TABLE_CACHE=DIR        download/build area (default /var/cache/table-ci, outside the clone, as for the
#                          debug PHP of scripts/build-debug-php.sh, whose unpacked source this shares)
#   PHP_ZTS_DEBUG=0        a release ZTS build (default 1: --enable-debug too; prefix then php-zts-release)
#   PHP_ZTS_CONFIGURE_EXTRA="..."   extra configure flags
#   PHP_ZTS_VERSION=8.4    the source package phpX.Y to build (default: the release PHP's X.Y)
#   PHP_ZTS_APACHE=1       also build mod_php (the apache2handler SAPI, through apache2-dev's apxs2) into
#                          $prefix/lib/apache2/mod_php.so: PHP builds one such SAPI at a time, so a second
#                          configure of the same source, with the same flags and --with-apxs2 instead of
#                          --enable-embed; only its module is kept (its CLI is the same). Apache loads it
#                          with `LoadModule php_module .../mod_php.so`, and extensions built for this PHP
#                          load in it (tests/apache/run.sh)
#
# Why debug by default: ZTS is where this extension's per-thread state lives, and a debug build asserts
# what a release build lets through (TSRM cache misuse, refcounts of values shared across threads, leaks at
# each thread's request end, the signal blocking depth). A benchmark wants PHP_ZTS_DEBUG=0.
#
# The build happens in a copy of the unpacked source ($TABLE_CACHE/src/zts/..., zts-release/ for a release
# build, zts-apache/ for mod_php), so that it never races the debug PHP's in-tree build nor another of these. Exit status 3 when the archive lists the source package but does not
# serve its files, as for build-debug-php.sh.
#
# Idempotent: when $prefix/bin/php exists, is a ZTS build and was configured with the same flags, it does
# nothing but print the path. Then: bash scripts/test.sh --php "$(bash scripts/build-zts-php.sh)" --label=zts
set -euo pipefail
# The body is one compound command, read whole before it runs: editing this file mid-run is safe.
{
. "$(dirname "$0")/lib.sh"

CACHE=${TABLE_CACHE:-/var/cache/table-ci}
DEBUG=${PHP_ZTS_DEBUG:-1}
NAME=zts
[ "$DEBUG" = 1 ] || NAME=zts-release
PREFIX=${PHP_ZTS_PREFIX:-$CACHE/php-$NAME}
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}
CONFIGURE_FLAGS=(
	--prefix="$PREFIX"
	--enable-zts
	--disable-all
	--disable-cgi
	--disable-phpdbg
	--without-pear
	--enable-cli
	--enable-embed
	--enable-pcntl
	--enable-posix
	--enable-tokenizer
	--enable-ctype
	--with-config-file-path="$PREFIX/etc"
	--with-config-file-scan-dir="$PREFIX/etc/conf.d"
)
[ "$DEBUG" = 1 ] && CONFIGURE_FLAGS+=(--enable-debug)
# shellcheck disable=SC2206  # word splitting of the extra flags is intended
[ -n "${PHP_ZTS_CONFIGURE_EXTRA:-}" ] && CONFIGURE_FLAGS+=(${PHP_ZTS_CONFIGURE_EXTRA})
STAMP="$PREFIX/.table-configure-flags"
VERSION=${PHP_ZTS_VERSION:-$(php_minor php-config)}
if [ -z "$VERSION" ]; then
	apt_ensure php-dev
	VERSION=$(php_minor php-config)
fi
[[ "$VERSION" =~ ^[0-9]+\.[0-9]+$ ]] || die "cannot tell which PHP to build (php-config --version: '$VERSION')"

APACHE_FLAGS=()
for f in "${CONFIGURE_FLAGS[@]}"; do [ "$f" = --enable-embed ] || APACHE_FLAGS+=("$f"); done
APACHE_FLAGS+=(--with-apxs2=/usr/bin/apxs2)
APACHE_STAMP="$PREFIX/.table-apache-flags"
APACHE_SO="$PREFIX/lib/apache2/mod_php.so"

# build_apache SRCDIR: mod_php from a copy of the source, configured as the ZTS PHP is but for its SAPI.
build_apache() {
	local work="$CACHE/src/$NAME-apache/$(basename "$1")" buildlog="$CACHE/php-$NAME-apache.log"
	apt_ensure apache2-bin apache2-dev
	mkdir -p "$work"
	rsync -a --delete --exclude='*.o' --exclude='*.lo' --exclude='.libs' "$1/" "$work/"
	log "building mod_php (ZTS) for $PREFIX (-j$JOBS, log: $buildlog)"
	: >"$buildlog"
	(
		cd "$work"
		run() { "$@" >>"$buildlog" 2>&1 || { tail -n 40 "$buildlog" >&2; die "failed: $* (see $buildlog)"; }; }
		[ -f Makefile ] && run make distclean
		run ./buildconf --force
		run ./configure "${APACHE_FLAGS[@]}"
		run make -j"$JOBS"
	) || exit 1
	# Not `make install`: apxs would install it into Apache's own module directory and enable it there.
	mkdir -p "$(dirname "$APACHE_SO")"
	cp "$work/libs/libphp.so" "$APACHE_SO"
	printf '%s' "${APACHE_FLAGS[*]}" >"$APACHE_STAMP"
}
apache_built() { [ -f "$APACHE_SO" ] && [ -f "$APACHE_STAMP" ] && [ "$(cat "$APACHE_STAMP")" = "${APACHE_FLAGS[*]}" ]; }

if [ -x "$PREFIX/bin/php" ] && [ -f "$STAMP" ] && [ "$(cat "$STAMP")" = "${CONFIGURE_FLAGS[*]}" ] \
	&& [ "$("$PREFIX/bin/php" -r 'echo PHP_ZTS;' 2>/dev/null)" = 1 ] \
	&& [ "$(php_minor "$PREFIX/bin/php-config")" = "$VERSION" ]; then
	log "ZTS PHP already built: $("$PREFIX/bin/php" -v | head -n 1)"
	apt_ensure libtool pkg-config
	php_link_aclocal "$PREFIX"
	if [ "${PHP_ZTS_APACHE:-0}" = 1 ] && ! apache_built; then
		build_apache "$(php_deb_source "$VERSION" "$CACHE")"
	fi
	echo "$PREFIX/bin/php-config"
	exit 0
fi

apt_ensure build-essential dpkg-dev autoconf automake libtool bison re2c pkg-config file rsync
rc=0
srcdir=$(php_deb_source "$VERSION" "$CACHE") || rc=$?
[ $rc = 3 ] && { log "no ZTS PHP $VERSION here"; exit 3; }
[ $rc = 0 ] || exit $rc

# A private copy of the source: the debug PHP builds in the shared tree itself.
work="$CACHE/src/$NAME/$(basename "$srcdir")"
mkdir -p "$work"
rsync -a --delete --exclude='*.o' --exclude='*.lo' --exclude='.libs' "$srcdir/" "$work/"
log "building $(basename "$srcdir") (ZTS$([ "$DEBUG" = 1 ] && echo ', debug')) into $PREFIX (-j$JOBS, log: $CACHE/php-$NAME.log)"

cd "$work"
buildlog="$CACHE/php-$NAME.log"
: >"$buildlog"
run() { "$@" >>"$buildlog" 2>&1 || { tail -n 40 "$buildlog" >&2; die "failed: $* (see $buildlog)"; }; }
[ -f Makefile ] && run make distclean
run ./buildconf --force
run ./configure "${CONFIGURE_FLAGS[@]}"
run make -j"$JOBS"
rm -rf "$PREFIX"
run make install
mkdir -p "$PREFIX/etc/conf.d"
php_link_aclocal "$PREFIX"
printf '%s' "${CONFIGURE_FLAGS[*]}" >"$STAMP"

[ "$("$PREFIX/bin/php" -r 'echo PHP_ZTS;')" = 1 ] || die "$PREFIX/bin/php is not a ZTS build"
# Debian's source installs the embed SAPI's library under lib/php, upstream's under lib.
[ -f "$PREFIX/lib/php/libphp.so" ] || [ -f "$PREFIX/lib/libphp.so" ] || die "no libphp.so (the embed SAPI) under $PREFIX/lib"
log "built: $("$PREFIX/bin/php" -v | head -n 1)"
[ "${PHP_ZTS_APACHE:-0}" = 1 ] && build_apache "$srcdir"
echo "$PREFIX/bin/php-config"
exit
}
