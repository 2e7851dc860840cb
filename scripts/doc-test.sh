#!/usr/bin/env bash
# scripts/doc-test.sh - the docs' test: every relative link and anchor in README.md, docs/ and the other
# READMEs resolves, and every example marked runnable (`<!-- doctest -->` before its fence) runs against
# the table.so given, with the PHP given (scripts/doc-test.php says how examples are marked and checked).
#
#   bash scripts/doc-test.sh TABLE_SO [--php PHP]       (PHP: its binary; default `php` on PATH)
#
# Output: `ok`/`not ok` lines, then `docs: N passed, N failed`; exit status 1 on any failure. The layer
# `docs` of scripts/test.sh runs it on the table.so it built.
set -uo pipefail
cd "$(dirname "$0")/.."
so=${1:?usage: bash scripts/doc-test.sh TABLE_SO [--php PHP]}
shift
php=php
while [ $# -gt 0 ]; do
	case $1 in
		--php) php=${2:?--php needs a path}; shift 2 ;;
		--php=*) php=${1#*=}; shift ;;
		*) shift ;;
	esac
done
# --php may name php-config or an install prefix, as scripts/test.sh's does: find the binary.
if [ -x "$php" ] && [[ $php == *php-config* ]]; then php=$("$php" --php-binary); fi
[ -d "$php" ] && [ -x "$php/bin/php" ] && php="$php/bin/php"   # (never the checkout's own php/ folder)
# An absolute path: the sh examples run with a php wrapper of their own first on PATH.
php=$(command -v "$php") || { echo "doc-test.sh: no PHP binary $php" >&2; exit 1; }
exec "$php" -n scripts/doc-test.php --so "$so" --php "$php"
