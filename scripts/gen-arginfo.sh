#!/bin/sh
# Regenerate table_arginfo.h from table.stub.php (and binding/php_table_apcu_arginfo.h from
# binding/php_table_apcu.stub.php, the APCu API of table.apcu_compat) with PHP's own gen_stub.php, offline.
#
#   scripts/gen-arginfo.sh            # from anywhere; writes table_arginfo.h next to table.stub.php
#   GEN_STUB=/path/to/gen_stub.php PHP_PARSER=/path/to/PhpParser scripts/gen-arginfo.sh
#
# gen_stub.php loads nikic/PHP-Parser from "<dir of gen_stub.php>/PHP-Parser-4.15.1/lib/PhpParser" and
# tries to download it when that directory is missing. We never let it download: the script copies
# gen_stub.php into a temporary directory and points PHP-Parser-4.15.1/lib/PhpParser there at the
# installed parser (Debian: php-parser, /usr/share/php/PhpParser), so nothing outside the repo changes.
# gen_stub.php needs the tokenizer extension, so PHP runs with its normal ini (not -n).
set -eu

ROOT=$(cd "$(dirname "$0")/.." && pwd)
PHP=${PHP:-php}
if [ -z "${GEN_STUB:-}" ]; then
	GEN_STUB="$(php-config --extension-dir 2>/dev/null | sed 's|/[^/]*$||')/$(php-config --phpapi 2>/dev/null)/build/gen_stub.php"
	[ -f "$GEN_STUB" ] || GEN_STUB="$(php-config --prefix)/lib/php/build/gen_stub.php"
	[ -f "$GEN_STUB" ] || GEN_STUB=/usr/lib/php/$(php-config --phpapi)/build/gen_stub.php
fi
PHP_PARSER=${PHP_PARSER:-/usr/share/php/PhpParser}
PARSER_VERSION=$(sed -n 's/^ *\$version = "\([0-9.]*\)";/\1/p' "$GEN_STUB" | head -n 1)

[ -f "$GEN_STUB" ] || { echo "gen_stub.php not found (set GEN_STUB)" >&2; exit 1; }
[ -d "$PHP_PARSER" ] || { echo "PHP-Parser not found at $PHP_PARSER (apt-get install php-parser, or set PHP_PARSER)" >&2; exit 1; }
[ -n "$PARSER_VERSION" ] || { echo "cannot read the PHP-Parser version gen_stub.php expects" >&2; exit 1; }

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT INT TERM
cp "$GEN_STUB" "$TMP/gen_stub.php"
mkdir -p "$TMP/PHP-Parser-$PARSER_VERSION/lib"
ln -s "$PHP_PARSER" "$TMP/PHP-Parser-$PARSER_VERSION/lib/PhpParser"

cd "$ROOT"
# -f: regenerate even when the stub hash in the header is unchanged.
"$PHP" "$TMP/gen_stub.php" -f table.stub.php binding/php_table_apcu.stub.php
