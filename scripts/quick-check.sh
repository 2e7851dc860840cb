#!/usr/bin/env bash
# scripts/quick-check.sh - before submitting: in about ten minutes, what most often breaks CI.
#
#   bash scripts/quick-check.sh [--since REF] [--no-php84]
#
# A full CI run (.ci/run) takes half an hour or more; this runs the parts of it that past submissions
# failed on, and the layers that the change touches, with the same scripts and the same checks:
#
#   package     scripts/check-package.sh: package.xml lists every file, versions agree
#   release     scripts/test.sh on Debian 12's PHP: core/ Zend-free, arginfo, table.so with -Werror,
#               the PHPT suite, the doc test, plus the layers below that the change touches
#   fpm         benchmarks/fpm/run.sh briefly: php-fpm and nginx's logs must hold nothing unexpected
#   php84       the PHPT suite on Debian 13's PHP 8.4 (scripts/debian-tree.sh's tree; made when missing)
#   valgrind    the PHPT folders the change touches, on the debug PHP under valgrind, the layer that a
#               loaded machine trips most; only when the debug PHP is already built (.ci/run builds it,
#               or `bash scripts/build-debug-php.sh`), since building it takes minutes
#
# What the change touches is every file that differs from REF, committed or not. REF is --since, else
# $TABLE_BASE, else the upstream branch, else the newest commit older than 12 hours (today's work):
#   core/       + core (ASan+UBSan) and tsan       redis/        + redis, and tests/15_redis_tier under valgrind
#   tests/NN_x/ + that folder under valgrind        stress/       + stress/run.sh
#   benchmarks/ + smoke (the benchmark checks)      php/, status/ + adapters, observe
#   binding/, serializer/, table.c, *.h, config.m4: the whole suite under valgrind is too long for this;
#               say so, and leave it to CI
#
# Output: a line per part, then `N passed, N failed[, N skipped]`; exit status 1 when anything failed. Each
# part's failures (PHPT diffs, failed C checks) are printed by the script that ran it, above the summary.
set -uo pipefail
# The body is one compound command, read whole before it runs: editing this file mid-run is safe.
{
. "$(dirname "$0")/lib.sh"
cd "$TABLE_ROOT"
export NO_INTERACTION=1 REDIS_TESTS_REQUIRED=1

SINCE=${TABLE_BASE:-}
PHP84=1
while [ $# -gt 0 ]; do
	case "$1" in
		--since) SINCE=$2; shift ;;
		--since=*) SINCE=${1#*=} ;;
		--no-php84) PHP84=0 ;;
		-h|--help) sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
		*) die "unknown argument: $1 (see --help)" ;;
	esac
	shift
done
if [ -z "$SINCE" ]; then
	SINCE=$(git rev-parse -q --verify '@{upstream}' 2>/dev/null ||
		git rev-list -1 --before='12 hours ago' HEAD 2>/dev/null || true)
	[ -n "$SINCE" ] || SINCE=$(git rev-list --max-parents=0 HEAD | tail -n 1)
fi
changed=$({ git diff --name-only "$SINCE"; git ls-files --others --exclude-standard; } | sort -u)
log "changes since $(git log -1 --format='%h %cr' "$SINCE"): $(wc -l <<<"$changed" | tr -d ' ') files"
touches() { grep -qE "$1" <<<"$changed"; }

layers=zend-free,arginfo,phpt,docs
touches '^core/' && layers+=,core,tsan
touches '^redis/' && layers+=,redis
touches '^benchmarks/' && layers+=,smoke
touches '^php/' && layers+=,adapters
touches '^status/' && layers+=,observe
valgrind_dirs=$(grep -oE '^tests/[0-9][0-9]_[a-z0-9_]+' <<<"$changed" | sort -u | tr '\n' ' ')
touches '^redis/' && valgrind_dirs+=" tests/15_redis_tier"
valgrind_dirs=$(tr ' ' '\n' <<<"$valgrind_dirs" | sed '/^$/d' | sort -u | while read -r d; do [ -d "$d" ] && echo "$d"; done | tr '\n' ' ')

TOTAL_P=0 TOTAL_F=0 TOTAL_S=0 LINES=()
LOGDIR="$TABLE_ROOT/build/quick-check"
mkdir -p "$LOGDIR"
# part NAME COMMAND...: run it, show its output, count its last `N passed, N failed[, N skipped]`.
part() {
	local name=$1 log="$LOGDIR/$1.log" t0=$SECONDS rc last p=0 f=1 s=0
	shift
	printf '\n########## %s: %s\n' "$name" "$*"
	"$@" 2>&1 | tee "$log"
	rc=${PIPESTATUS[0]}
	last=$(grep -aE '^([A-Za-z0-9_.-]+: )?[0-9]+ passed, [0-9]+ failed(, [0-9]+ skipped)?$' "$log" | tail -n 1 |
		sed -E 's/^[A-Za-z0-9_.-]+: //')
	if [ -n "$last" ]; then
		read -r p f s < <(sed -E 's/^([0-9]+) passed, ([0-9]+) failed(, ([0-9]+) skipped)?$/\1 \2 \4/' <<<"$last")
		s=${s:-0}
		[ "$rc" -ne 0 ] && [ "$f" -eq 0 ] && f=1
	fi
	TOTAL_P=$((TOTAL_P + p)) TOTAL_F=$((TOTAL_F + f)) TOTAL_S=$((TOTAL_S + s))
	LINES+=("$(printf '%-10s %4ds   %s passed, %s failed, %s skipped' "$name:" $((SECONDS - t0)) "$p" "$f" "$s")")
}

part package bash scripts/check-package.sh
part release env TEST_LAYERS="$layers" bash scripts/test.sh
SO="$TABLE_ROOT/build/release/modules/table.so"
if [ -f "$SO" ]; then
	touches '^stress/' && part stress bash stress/run.sh "$SO"
	part fpm bash benchmarks/fpm/run.sh "$SO" --seconds 1 --repeat 1
fi
[ $PHP84 = 1 ] && part php84 bash scripts/test.sh --debian13 --layers=phpt
debug_config=${TABLE_CACHE:-/var/cache/table-ci}/php-debug/bin/php-config
if [ -n "$valgrind_dirs" ]; then
	if [ -x "$debug_config" ]; then
		part valgrind bash scripts/test.sh --php "$debug_config" --layers=phpt --valgrind --label=debug-valgrind $valgrind_dirs
	else
		LINES+=("valgrind:  not run: no debug PHP at $debug_config (bash scripts/build-debug-php.sh builds it)")
	fi
fi
touches '^(binding|serializer)/|^table\.c$|^[a-z_]+\.h$|^config\.m4$' &&
	LINES+=("note:      the binding changed: the whole PHPT suite under valgrind and on the debug PHP runs only in CI")

printf '\n########## quick check (%ds; changes since %s)\n' "$SECONDS" "$(git log -1 --format=%h "$SINCE")"
printf '%s\n' "${LINES[@]}"
final="$TOTAL_P passed, $TOTAL_F failed"
[ "$TOTAL_S" -gt 0 ] && final="$final, $TOTAL_S skipped"
echo "$final"
[ "$TOTAL_F" -eq 0 ]
exit
}
