#!/usr/bin/env bash
# scripts/versions.sh - what this machine tests against: the Debian release, the PHP on PATH, the
# extensions and servers the tests compare with or depend on, and the framework packages the adapters
# are tested with. One `name: version` line each ("-" when not installed). .ci/run prints it first, on
# the host and inside the Debian 13 tree (scripts/debian-tree.sh run bash scripts/versions.sh).
#
#   bash scripts/versions.sh [--install]    --install: first install what CI needs from Debian's archive
set -uo pipefail
# The body is one compound command, read whole before it runs: editing this file mid-run is safe.
{
. "$(dirname "$0")/lib.sh"

if [ "${1:-}" = --install ]; then
	apt_ensure build-essential autoconf automake libtool pkg-config git procps \
		$(php_deb_pkgs dev cli) php-apcu php-igbinary php-redis php-memcached php-xml php-parser \
		redis-server memcached phpunit php-symfony-cache php-illuminate-cache php-cache-integration-tests
fi

deb() { dpkg-query -W -f='${Version}' "$1" 2>/dev/null || echo -; }
ext() { php -r "echo phpversion('$1') ?: '-';" 2>/dev/null || echo -; }
first_line() { "$@" 2>/dev/null | head -n 1 || true; }

printf '%-18s %s\n' \
	debian "$(cat /etc/debian_version 2>/dev/null || echo -) ($(. /etc/os-release 2>/dev/null && echo "${VERSION_CODENAME:-?}"))" \
	php "$(php -r 'echo PHP_VERSION, PHP_ZTS ? " ZTS" : " NTS", PHP_DEBUG ? " debug" : "";' 2>/dev/null || echo -)" \
	php-config "$(php-config --version 2>/dev/null || echo -) ($(command -v php-config || echo none))" \
	gcc "$(first_line gcc -dumpfullversion || echo -)" \
	apcu "$(ext apcu)" \
	igbinary "$(ext igbinary)" \
	phpredis "$(ext redis)" \
	php-memcached "$(ext memcached)" \
	redis-server "$(first_line redis-server --version | sed -n 's/.* v=\([^ ]*\).*/\1/p')" \
	memcached "$(first_line memcached -V | sed 's/^memcached //')" \
	symfony-cache "$(deb php-symfony-cache)" \
	laravel-cache "$(deb php-illuminate-cache)" \
	phpunit "$(deb phpunit)" \
	libhiredis "$(deb libhiredis-dev)"
exit 0
}
