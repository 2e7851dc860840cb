#!/usr/bin/env bash
# status/test/run.sh - the status page's browser test: serves status/table-status.php with `php -S` and
# the given table.so, loads it in headless Chromium (Debian's `chromium`) and checks it
# (status/test/check.php says what). The screenshot is kept as build/ci/observe/status.png.
#
#   bash status/test/run.sh build/release/modules/table.so [--php PHP] [--no-install]
#
# Installs chromium and php-xml (ext/dom, for check.php) from Debian's archive when missing (NO_INSTALL=1 or --no-install: don't).
# Ends with `observe: N passed, N failed`.
set -uo pipefail
. "$(dirname "$0")/../../scripts/lib.sh"
cd "$TABLE_ROOT"

SO="" PHP=${PHP:-php} NO_INSTALL=${NO_INSTALL:-0}
while [ $# -gt 0 ]; do
	case "$1" in
		--php) PHP=$2; shift ;;
		--php=*) PHP=${1#*=} ;;
		--no-install) NO_INSTALL=1 ;;
		*) SO=$1 ;;
	esac
	shift
done
if [ -z "$SO" ] || [ ! -f "$SO" ]; then
	echo "usage: bash status/test/run.sh TABLE_SO (no such file: '$SO')"
	echo "observe: 0 passed, 1 failed"
	exit 1
fi
[ "$NO_INSTALL" = 1 ] || apt_ensure chromium php-xml   # check.php reads the DOM with ext/dom
SHOT="$TABLE_ROOT/build/ci/observe/status.png"
mkdir -p "$(dirname "$SHOT")"
php_without_installed_table "$PHP"
"$PHP" "$TABLE_ROOT/status/test/check.php" --so "$(cd "$(dirname "$SO")" && pwd)/$(basename "$SO")" --screenshot "$SHOT"
