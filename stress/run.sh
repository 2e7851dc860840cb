#!/usr/bin/env bash
# stress/run.sh - the reliability stress runs, for CI: SIGKILL chaos and the real php-fpm test.
#
#   bash stress/run.sh /abs/path/to/table.so          (or TABLE_SO=/abs/path/to/table.so bash stress/run.sh)
#
# Runs, each under its own time limit (nothing can hang CI):
#   chaos           stress/chaos.php, 6 s of SIGKILLs against 4 workers on a 64M table      (limit 150 s)
#   chaos-pressure  the same for 4 s on a 4M table, so eviction runs all the time (limit 150 s), under the
#                   default policy (gdsf, which moves entries as it evicts) and then again under lru. A set()
#                   that returns false is counted, not failed (--allow-oom): with the table full, a reader
#                   descheduled or being killed inside a read makes a writer that needs the memory it pins
#                   wait up to 200 ms and then give up, which api.md allows; everything else is checked
#   chaos-segment   the same for 4 s on a named segment in a temporary directory (removed at the end),
#                   its odd worker slots separately started PHPs that attach while others are killed, and
#                   the probe one more, started after the run (--spawn mixed)                  (limit 150 s)
#   chaos-large     issue #19's mode for 8 s on a 16M table (--large): 2 writers of 50 KB-1.5 MB values and
#                   2 zero-copy readers holding the arrays they read, all killed at random, the table under
#                   memory pressure; at the end the memory is what it was at the start, to the byte, and
#                   tbl_check is clean. A set() that returns false is counted, not failed (--allow-oom), as
#                   in chaos-pressure: about one in 85 s here, fragmentation by held arrays ruled out
#                   (core/split.c) but the cause not isolated; the 10-minute run is in docs/reliability.md
#                                                                                              (limit 150 s)
#   fpm             stress/fpm/run.sh: php-fpm + nginx + ab/wrk, reloads, logs               (limit 240 s)
# and, only with CHAOS_APCU=1, the chaos harness against APCu for comparison (reported, never counted:
# APCu is expected to wedge when a worker dies holding its lock).
#
# Each part prints its own `NAME: N passed, N failed`; the last line is the sum, `N passed, N failed`.
# Exit status 1 when anything failed or a part ended without its summary line.
# Environment: PHP (the php binary, default: php), NO_INSTALL=1 (the fpm part installs nothing),
# CHAOS_SECONDS (default 6), STRESS_PARTS="chaos chaos-pressure chaos-segment chaos-large fpm" picks parts, KEEP=1 keeps the logs
# (they are kept anyway when something failed).
set -uo pipefail
{
HERE=$(cd "$(dirname "$0")" && pwd)
SO=${1:-${TABLE_SO:-}}
PHP=${PHP:-php}
. "$HERE/../scripts/lib.sh"
php_without_installed_table "$PHP"   # the table.so given, not one installed system-wide
PARTS=${STRESS_PARTS:-chaos chaos-pressure chaos-segment chaos-large fpm}
if [ -z "$SO" ] || [ ! -f "$SO" ]; then
	echo "usage: bash stress/run.sh /abs/path/to/table.so   (or TABLE_SO=...)${SO:+; no such file: $SO}"
	echo "0 passed, 1 failed"
	exit 1
fi
SO=$(realpath "$SO")
LOGDIR=$(mktemp -d /tmp/table-stress.XXXXXX)
SEGDIR=""   # chaos-segment's segment directory; removed when the part ends, or by this trap if it never does
trap 'if [ -n "$SEGDIR" ]; then rm -rf "$SEGDIR"; fi' EXIT
TOTAL_P=0 TOTAL_F=0
LINES=()

# part NAME LIMIT COMMAND...: run it under `timeout`, show its output, add its last `NAME: N passed, N failed`.
part() {
	local name=$1 limit=$2 log="$LOGDIR/$1.log" rc line p f
	shift 2
	printf '\n===== %s: %s\n' "$name" "$*"
	# timeout signals the whole process group of the command, so workers left behind are killed too.
	timeout -k 10 "$limit" "$@" 2>&1 | tee "$log"
	rc=${PIPESTATUS[0]}
	line=$(grep -aE "^[a-z]+: [0-9]+ passed, [0-9]+ failed" "$log" | tail -n 1)
	if [ -z "$line" ]; then
		p=0 f=1
		[ "$rc" -eq 124 ] && echo "$name: timed out after ${limit}s"
		line="$name: ended (exit $rc) without a summary line"
	else
		p=$(sed -E 's/^[a-z]+: ([0-9]+) passed.*/\1/' <<<"$line")
		f=$(sed -E 's/^[a-z]+: [0-9]+ passed, ([0-9]+) failed.*/\1/' <<<"$line")
		[ "$rc" -ne 0 ] && [ "$f" -eq 0 ] && f=1 && line="$line (but exit $rc)"
		line="$name: $p passed, $f failed"
	fi
	TOTAL_P=$((TOTAL_P + p)) TOTAL_F=$((TOTAL_F + f))
	LINES+=("$line")
}

for p in $PARTS; do
	case "$p" in
		chaos)
			part chaos 150 "$PHP" -d "extension=$SO" "$HERE/chaos.php" --seconds "${CHAOS_SECONDS:-6}" ;;
		chaos-pressure)
			part chaos-pressure 150 "$PHP" -d "extension=$SO" -d table.memory=4M \
				"$HERE/chaos.php" --seconds 4 --allow-oom
			part chaos-pressure-lru 150 "$PHP" -d "extension=$SO" -d table.memory=4M -d table.eviction_policy=lru \
				"$HERE/chaos.php" --seconds 4 --allow-oom ;;
		chaos-segment)
			# in /dev/shm (memory, as in production) when there is one
			SEGDIR=$(mktemp -d /dev/shm/table-stress-seg.XXXXXX 2>/dev/null || mktemp -d /tmp/table-stress-seg.XXXXXX)
			part chaos-segment 150 "$PHP" -d "extension=$SO" "$HERE/chaos.php" --seconds 4 \
				--segment chaos --segment-dir "$SEGDIR" --spawn mixed
			rm -rf "$SEGDIR"
			SEGDIR="" ;;
		chaos-large)
			part chaos-large 150 "$PHP" -d "extension=$SO" -d table.memory=16M "$HERE/chaos.php" --large --seconds 8 \
				--allow-oom ;;
		fpm)
			part fpm 240 bash "$HERE/fpm/run.sh" "$SO" ;;
		*)
			echo "unknown part: $p"; TOTAL_F=$((TOTAL_F + 1)); LINES+=("$p: unknown part") ;;
	esac
done

if [ "${CHAOS_APCU:-0}" = 1 ]; then
	printf '\n===== chaos-apcu (for comparison, not counted)\n'
	timeout -k 10 150 "$PHP" -d apc.enable_cli=1 "$HERE/chaos.php" --subject apcu --seconds 6 --probe-timeout 10 2>&1 |
		tee "$LOGDIR/chaos-apcu.log"
	LINES+=("chaos-apcu (not counted): $(grep -aE '^chaos: [0-9]+ passed' "$LOGDIR/chaos-apcu.log" | tail -n 1)")
fi

if [ "$TOTAL_F" -eq 0 ] && [ "${KEEP:-0}" != 1 ]; then
	rm -rf "$LOGDIR"
	printf '\n===== stress summary\n'
else
	printf '\n===== stress summary (logs kept in %s)\n' "$LOGDIR"
fi
printf '%s\n' "${LINES[@]}"
echo "$TOTAL_P passed, $TOTAL_F failed"
[ "$TOTAL_F" -eq 0 ] && [ "$TOTAL_P" -gt 0 ]
exit
}
